import Foundation
import HummingbirdTesting
import NIOCore
import QRCore
import QREncoder
import QRImage
import QRPicker
import QRReader
import QRRender
import QRTestSupport
import Testing
@testable import QRServer

/// Where the browser tests run, and where their screenshots go.
enum BrowserEnvironment {
    static let chromium = Chromium.executable
    /// CI must not pass by skipping: there a missing browser is a failure.
    static let isCI: Bool = {
        let value = (ProcessInfo.processInfo.environment["CI"] ?? "").lowercased()
        return !value.isEmpty && value != "false" && value != "0"
    }()
    static var shouldRun: Bool { chromium != nil || isCI }
    /// `QRKIT_SCREENSHOTS=<dir>` saves a screenshot of each page state there.
    static let screenshots: URL? = ProcessInfo.processInfo.environment["QRKIT_SCREENSHOTS"].map { URL(fileURLWithPath: $0) }
}

/// The pages driven in headless Chromium: the generator, the scanner with one and several codes, the camera.
@Suite("Pages in a real browser", .serialized,
       .enabled(if: BrowserEnvironment.shouldRun, "Chromium is not installed (with CI=true this is a failure)"))
struct BrowserTests {
    /// What each test gets: the tab, the server's address and client, and a scratch folder.
    struct Harness: Sendable {
        let page: BrowserPage
        let base: String
        let client: any TestClientProtocol
        let directory: URL

        func file(_ name: String, _ bytes: [UInt8]) throws -> String {
            let url = directory.appendingPathComponent(name)
            try Data(bytes).write(to: url)
            return url.path
        }

        func screenshot(_ name: String) async throws {
            guard let folder = BrowserEnvironment.screenshots else { return }
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try await page.screenshot().write(to: folder.appendingPathComponent(name))
        }

        func text(_ selector: String) async throws -> String {
            try await page.evaluate("document.querySelector(\(BrowserPage.literal(selector))).textContent", as: String.self)
        }

        func isVisible(_ selector: String) async throws -> Bool {
            try await page.evaluate("!document.querySelector(\(BrowserPage.literal(selector))).closest('[hidden]')", as: Bool.self)
        }
    }

    /// Starts the server on a free port and a fresh Chromium, runs `body`, and always ends Chromium and
    /// removes the scratch folder.
    private func withBrowser(camera frames: [GrayImage]? = nil,
                             _ body: @Sendable (Harness) async throws -> Void) async throws {
        let executable = try #require(BrowserEnvironment.chromium,
                                      "chromium is not installed; CI installs the Debian package `chromium` in .ci/run")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("qrkit-browser-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var video: URL?
        if let frames {
            let url = directory.appendingPathComponent("camera.y4m")
            try Y4MVideo.encode(frames).write(to: url)
            video = url
        }
        let fakeVideo = video
        try await QRWebServer.application(configuration: QRServerConfiguration()).test(.live) { client in
            let port = try #require(client.port)
            let browser = try Chromium(executable: executable, directory: directory, fakeVideo: fakeVideo)
            do {
                let page = try await BrowserPage.attach(to: browser)
                try await body(Harness(page: page, base: "http://localhost:\(port)", client: client, directory: directory))
            } catch {
                await browser.shutdown()
                throw error
            }
            await browser.shutdown()
            // The pages work under the content security policy, without script errors.
            let problems = browser.pageLog.filter { $0.contains("Content Security Policy") || $0.hasPrefix("exception:") }
            #expect(problems.isEmpty, "\(problems)")
        }
    }

    // MARK: Generator (seed 000)

    @Test func generatorShowsAndDownloadsTheSameCode() async throws {
        let typed = "Hello from QRKit — Grüße, seed 000!"
        try await withBrowser { h in
            try await h.page.open(h.base + "/")
            // Empty text does nothing.
            try await h.page.click("#toggle")
            #expect(try await h.isVisible("#output") == false)
            #expect(try await h.text("#toggle") == "Generate")

            _ = try await h.page.evaluate("document.getElementById('text').focus() ?? true", as: Bool.self)
            try await h.page.insertText(typed)
            try await h.page.waitUntil("!document.getElementById('output').hidden && document.getElementById('meta').textContent.includes('level M')",
                                       "the code to appear as the user types")
            #expect(try await h.text("#toggle") == "Clear")

            try await h.page.click("input[name=level][value=H]")
            try await h.page.waitUntil("document.getElementById('meta').textContent.includes('level H (30 % recovery)')", "level H")
            _ = try await h.page.evaluate("""
                (() => { const s = document.getElementById('moduleSize'); s.value = '5';
                         s.dispatchEvent(new Event('input', { bubbles: true })); return true; })()
                """, as: Bool.self)
            try await h.page.waitUntil("document.getElementById('size-label').textContent.startsWith('5 px per module')", "module size 5")

            // The image on screen: whole-pixel modules, at its natural size, and it reads as the typed text.
            // Its pixels come through a canvas (the page's CSP does not let scripts fetch blob: URLs).
            struct Shown: Decodable { let gray: String; let naturalWidth: Int; let naturalHeight: Int; let width: Int }
            let shown = try await h.page.evaluate("""
                (async () => { const img = document.getElementById('code'); await img.decode();
                  const canvas = document.createElement('canvas');
                  canvas.width = img.naturalWidth; canvas.height = img.naturalHeight;
                  const context = canvas.getContext('2d'); context.drawImage(img, 0, 0);
                  const rgba = context.getImageData(0, 0, canvas.width, canvas.height).data;
                  let binary = ''; for (let i = 0; i < rgba.length; i += 4) binary += String.fromCharCode(rgba[i]);
                  return { gray: btoa(binary), naturalWidth: img.naturalWidth, naturalHeight: img.naturalHeight,
                           width: img.width }; })()
                """, as: Shown.self)
            let shownImage = try GrayImage(width: shown.naturalWidth, height: shown.naturalHeight,
                                           pixels: [UInt8](try #require(Data(base64Encoded: shown.gray))))
            let read = try #require(QRCodeReader().read(shownImage).first)
            #expect(read.text == typed)
            #expect(read.errorCorrectionLevel == .high)
            #expect(shown.naturalWidth == (17 + 4 * read.version + 8) * 5)
            #expect(shown.width == shown.naturalWidth)
            try await h.screenshot("generator.png")

            // Save: the downloaded PNG is byte for byte the one shown.
            let downloads = h.directory.appendingPathComponent("downloads")
            try FileManager.default.createDirectory(at: downloads, withIntermediateDirectories: true)
            try await h.page.browser.send("Browser.setDownloadBehavior", ["behavior": "allow", "downloadPath": downloads.path])
            try await h.page.click("#save-png")
            let png = try await waitForFile(downloads.appendingPathComponent("qr-code.png"))
            #expect(try ImageDecoder().decodeGray([UInt8](png)).image == shownImage)
            #expect(try decodedCodes(in: [UInt8](png)).map(\.text) == [typed])
            #expect(try await h.text("#message").hasPrefix("Success!"))

            try await h.page.click("#save-svg")
            let svg = String(decoding: try await waitForFile(downloads.appendingPathComponent("qr-code.svg")), as: UTF8.self)
            let side = 17 + 4 * read.version + 8
            #expect(svg.contains(#"viewBox="0 0 \#(side) \#(side)""#))
            #expect(svg.contains(#"width="\#(side * 5)""#))

            // Clear, as in the seed: code, text and title go back.
            try await h.page.click("#toggle")
            #expect(try await h.isVisible("#output") == false)
            #expect(try await h.page.evaluate("document.getElementById('text').value", as: String.self) == "")
            #expect(try await h.text("#toggle") == "Generate")
        }
    }

    // MARK: Scanner: several codes (seeds 002–003)

    /// A scanned page as PGM, which no browser shows: the picker draws its outlines on the server's PNG preview.
    @Test func severalCodesInAFileBrowsersCannotShowAreShownFromThePreview() async throws {
        let (_, image) = try TestImages.twoCodes("first label", "second label")
        let pgm = PNMEncoder.encodePGM(GrayImage(image))
        try await withBrowser { h in
            try await h.page.open(h.base + "/scanner")
            try await h.page.setFiles("#file", [try h.file("page.pgm", pgm)])
            try await h.page.waitUntil("!document.getElementById('picker').hidden && document.querySelectorAll('#overlay polygon').length === 2",
                                       "the picker with two outlines")
            try await h.page.waitUntil("document.getElementById('photo').naturalWidth === 600", "the preview shown")
            #expect(try await h.page.evaluate("document.getElementById('photo').src.startsWith('data:image/png;base64,')", as: Bool.self))
        }
    }

    @Test func severalCodesArePickedByClickTapToleranceAndKeyboard() async throws {
        let hostile = #"<img src=x onerror="window.__pwned=1">"#
        let link = "https://example.com/second?seed=002"
        let (png, _) = try TestImages.twoCodes(hostile, link)
        try await withBrowser { h in
            // The library's answer, to know which code is second and where it is.
            let api = try await h.client.execute(uri: "/api/decode", method: .post, headers: .contentType("image/png"),
                                                 body: ByteBuffer(png))
            let codes = try api.json(DecodedBody.self).codes
            try #require(codes.count == 2)

            try await h.page.open(h.base + "/scanner")
            try await h.page.setFiles("#file", [try h.file("two.png", png)])
            try await h.page.waitUntil("!document.getElementById('picker').hidden && document.querySelectorAll('#overlay polygon').length === 2",
                                       "the picker with two outlines")

            // The outlines are where QRPicker's aspect-fit mapping puts the corners.
            struct Stage: Decodable { let left: Double; let top: Double; let width: Double; let height: Double; let polygons: [String] }
            let stage = try await h.page.evaluate("""
                (() => { const stage = document.getElementById('stage'); stage.scrollIntoView({ block: 'center' });
                  const r = stage.getBoundingClientRect();
                  return { left: r.left, top: r.top, width: r.width, height: r.height,
                           polygons: [...document.querySelectorAll('#overlay polygon')].map(p =>
                             [p.getAttribute('points'), p.getAttribute('stroke'), p.getAttribute('stroke-width')].join('|')) }; })()
                """, as: Stage.self)
            let mapping = ViewMapping(imageSize: Size(width: 600, height: 300),
                                      viewSize: Size(width: stage.width, height: stage.height), contentMode: .aspectFit)
            #expect(mapping.scaleX != 1 && (mapping.offset.x > 0 || mapping.offset.y > 0), "the test must exercise scaling and centring")
            let quads = codes.map { mapping.viewQuadrilateral(fromImage: Quadrilateral($0.corners.map { Point($0.x, $0.y) })) }
            for (quad, polygon) in zip(quads, stage.polygons) {
                let parts = polygon.split(separator: "|")
                #expect(parts.dropFirst().joined(separator: "|") == "#FF3B30|3")
                let points = parts[0].split(separator: " ").map { $0.split(separator: ",").compactMap { Double($0) } }
                for (drawn, expected) in zip(points, quad.corners) {
                    #expect(abs(drawn[0] - expected.x) < 0.01 && abs(drawn[1] - expected.y) < 0.01, "\(drawn) \(expected) \(stage)")
                }
            }

            // 30 px outside the second code: nothing is picked.
            let second = quads[1]
            let rightEdge = (second.topRight + second.bottomRight) / 2
            let outward = Point(1, 0)
            let far = rightEdge + outward * 30
            #expect(HitTester.hit(far, in: quads) == nil)
            try await h.page.click(x: stage.left + far.x, y: stage.top + far.y)
            #expect(try await h.isVisible("#result") == false)
            #expect(try await h.text("#status").contains("not on a code"))

            // 6 px outside it, within the seed's 10-point tolerance: the second code is picked.
            let near = rightEdge + outward * 6
            #expect(HitTester.hit(near, in: quads) == 1)
            try await h.page.click(x: stage.left + near.x, y: stage.top + near.y)
            try await h.page.waitUntil("!document.getElementById('result').hidden", "the picked code's content")
            #expect(try await h.text("#result-text") == codes[1].text)
            #expect(try await h.page.evaluate("document.querySelector('#code-list li:nth-child(2) button').getAttribute('aria-pressed')",
                                              as: String.self) == "true")
            try await h.screenshot("scanner-several.png")

            // Keyboard: the list buttons pick too (Enter, then Space).
            _ = try await h.page.evaluate("document.querySelector('#code-list li:nth-child(1) button').focus() ?? true", as: Bool.self)
            try await h.page.press(key: "Enter", code: "Enter", keyCode: 13, text: "\r")
            try await h.page.waitUntil("document.getElementById('result-text').textContent === \(BrowserPage.literal(codes[0].text))",
                                       "Enter to pick the first code")
            _ = try await h.page.evaluate("document.querySelector('#code-list li:nth-child(2) button').focus() ?? true", as: Bool.self)
            try await h.page.press(key: " ", code: "Space", keyCode: 32, text: " ")
            try await h.page.waitUntil("document.getElementById('result-text').textContent === \(BrowserPage.literal(codes[1].text))",
                                       "Space to pick the second code")

            // The hostile text stayed text: no element was made from it, nothing ran.
            #expect(Set(codes.map(\.text)) == [hostile, link])
            #expect(try await h.page.evaluate("window.__pwned === undefined && document.querySelectorAll('main img:not(#photo)').length === 0",
                                              as: Bool.self))
            let listText = try await h.page.evaluate("[...document.querySelectorAll('#code-list .preview')].map(e => e.textContent)",
                                                     as: [String].self)
            #expect(Set(listText) == [hostile, link])
        }
    }

    // MARK: Scanner: one code (seeds 001–002)

    @Test func oneCodeIsShownAtOnceAndOnlySafeLinksOpen() async throws {
        let url = "https://example.com/single?seed=001"
        try await withBrowser { h in
            try await h.page.open(h.base + "/scanner")
            try await h.page.setFiles("#file", [try h.file("one.png", TestImages.png(url))])
            try await h.page.waitUntil("!document.getElementById('result').hidden", "the content of the only code")
            #expect(try await h.text("#result-text") == url)
            #expect(try await h.isVisible("#picker") == false)
            #expect(try await h.isVisible("#open-link"))
            #expect(try await h.page.evaluate("document.getElementById('open-link').href", as: String.self) == url)
            #expect(try await h.page.evaluate("document.getElementById('open-link').rel", as: String.self) == "noopener noreferrer")
            _ = try await h.page.evaluate("document.getElementById('details').open = true", as: Bool.self)
            #expect(try await h.text("#details-list").contains("Error correction"))
            try await h.screenshot("scanner-single.png")

            for hostile in ["javascript:alert(document.domain)", "data:text/html,<script>alert(1)</script>"] {
                try await h.page.setFiles("#file", [try h.file("hostile.png", TestImages.png(hostile))])
                try await h.page.waitUntil("document.getElementById('result-text').textContent === \(BrowserPage.literal(hostile))",
                                           "the hostile text, as text")
                #expect(try await h.isVisible("#open-link") == false)
                #expect(try await h.page.evaluate("document.getElementById('open-link').hasAttribute('href')", as: Bool.self) == false)
                #expect(try await h.text("#link-note").contains("only for http, https, mailto and tel"))
            }
            // An e-mail address or a phone number opens too (the scheme as the URL parser spells it).
            for (text, href) in [("MAILTO:name@example.com", "mailto:name@example.com"), ("tel:+15551234567", "tel:+15551234567")] {
                try await h.page.setFiles("#file", [try h.file("contact.png", TestImages.png(text))])
                try await h.page.waitUntil("document.getElementById('result-text').textContent === \(BrowserPage.literal(text))",
                                           "the contact text")
                #expect(try await h.isVisible("#open-link"))
                #expect(try await h.page.evaluate("document.getElementById('open-link').href", as: String.self) == href)
            }

            try await h.page.setFiles("#file", [try h.file("blank.png", PNGEncoder.encode(GrayImage(width: 80, height: 80)))])
            try await h.page.waitUntil("document.getElementById('status').textContent.includes('No QR code')", "the no-code message")
            #expect(try await h.isVisible("#result") == false)
        }
    }

    // MARK: Camera (seed 001)

    @Test func cameraScansUntilTheFirstCodeInsideTheFrame() async throws {
        // Half the frames hold a code outside the region-of-interest frame, half one inside it: only the
        // inside one may ever be read.
        let outside = try cameraFrame(text: "OUTSIDE the frame", at: (8, 8), moduleSize: 4)
        let inside = try cameraFrame(text: "INSIDE the frame", at: nil, moduleSize: 6)
        try await withBrowser(camera: Array(repeating: outside, count: 10) + Array(repeating: inside, count: 10)) { h in
            try await h.page.open(h.base + "/scanner")
            try await h.page.click("#camera-start")
            try await h.page.waitUntil("document.getElementById('video').videoWidth > 0 || !document.getElementById('result').hidden",
                                       "the camera to start")
            if try await h.isVisible("#camera") { try await h.screenshot("scanner-camera.png") }
            try await h.page.waitUntil("!document.getElementById('result').hidden", "a code from the camera", limit: .seconds(60))
            #expect(try await h.text("#result-text") == "INSIDE the frame")
            // Stopped at the first code: the camera is released.
            #expect(try await h.isVisible("#camera") == false)
            #expect(try await h.page.evaluate("document.getElementById('video').srcObject === null", as: Bool.self))
        }
    }

    @Test func cameraErrorsAreExplained() async throws {
        try await withBrowser { h in
            try await h.page.open(h.base + "/scanner")
            for (name, expected) in [("NotAllowedError", "permission was denied"), ("NotFoundError", "No camera was found")] {
                _ = try await h.page.evaluate("""
                    (() => { navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException('refused', \(BrowserPage.literal(name))));
                             return true; })()
                    """, as: Bool.self)
                try await h.page.click("#camera-start")
                try await h.page.waitUntil("document.getElementById('status').textContent.includes(\(BrowserPage.literal(expected)))",
                                           "the \(name) message")
                #expect(try await h.isVisible("#camera") == false)
            }
        }
    }

    // MARK: The page's geometry is QRPicker's

    @Test func pageGeometryMatchesQRPicker() async throws {
        var random = SeededGenerator(seed: 2024)
        var quadSets: [[Quadrilateral]] = []
        var points: [Point] = []
        for _ in 0..<150 {
            let quads = (0..<Int.random(in: 1...4, using: &random)).map { _ -> Quadrilateral in
                let center = Point(Double.random(in: 0...400, using: &random), Double.random(in: 0...400, using: &random))
                let half = Double.random(in: 10...80, using: &random)
                let angle = Double.random(in: 0...(2 * .pi), using: &random)
                return Quadrilateral((0..<4).map { corner -> Point in
                    let a = angle + Double(corner) * .pi / 2
                    let wobble = Double.random(in: 0.7...1.3, using: &random)
                    return center + Point(cos(a), sin(a)) * (half * wobble * 1.414)
                })
            }
            quadSets.append(quads)
            let target = quads[Int.random(in: 0..<quads.count, using: &random)]
            points.append(target.center + Point(Double.random(in: -120...120, using: &random), Double.random(in: -120...120, using: &random)))
        }
        let expectedHits = zip(points, quadSets).map { HitTester.hit($0, in: $1) ?? -1 }

        let modes: [(ContentMode, ImageOrigin)] = ContentMode.allCases.flatMap { mode in [(mode, .topLeft), (mode, .bottomLeft)] }
        let sizes: [(Size, Size)] = [(Size(width: 600, height: 300), Size(width: 818, height: 560)),
                                     (Size(width: 300, height: 900), Size(width: 400, height: 400)),
                                     (Size(width: 1000, height: 800), Size(width: 250, height: 600))]
        let probe = Point(123.5, 77.25)
        var expectedMappings: [[Double]] = []
        for (image, view) in sizes {
            for (mode, origin) in modes {
                let mapping = ViewMapping(imageSize: image, viewSize: view, contentMode: mode, imageOrigin: origin)
                let v = mapping.viewPoint(fromImage: probe)
                let back = mapping.imagePoint(fromView: Point(200, 150))
                expectedMappings.append([mapping.scaleX, mapping.scaleY, mapping.offset.x, mapping.offset.y, v.x, v.y, back.x, back.y])
            }
        }

        let libraryMappings = expectedMappings
        struct Answer: Decodable { let hits: [Int]; let mappings: [[Double]] }
        let quadJSON = quadSets.map { $0.map { $0.corners.map { ["x": $0.x, "y": $0.y] } } }
        let input = String(decoding: try JSONSerialization.data(withJSONObject: [
            "quads": quadJSON, "points": points.map { ["x": $0.x, "y": $0.y] },
            "sizes": sizes.map { [$0.0.width, $0.0.height, $0.1.width, $0.1.height] },
            "modes": modes.map { [$0.0.rawValue, $0.1.rawValue] },
        ]), as: UTF8.self)
        try await withBrowser { h in
            try await h.page.open(h.base + "/scanner")
            let answer = try await h.page.evaluate("""
                (async () => { const g = await import('/assets/geometry.js'); const input = \(input);
                  const hits = input.points.map((p, i) => g.hit(p, input.quads[i], 10) ?? -1);
                  const mappings = [];
                  for (const [iw, ih, vw, vh] of input.sizes) for (const [mode, origin] of input.modes) {
                    const m = g.viewMapping(iw, ih, vw, vh, mode, origin);
                    const v = m.toView({ x: 123.5, y: 77.25 }); const back = m.toImage({ x: 200, y: 150 });
                    mappings.push([m.scaleX, m.scaleY, m.offsetX, m.offsetY, v.x, v.y, back.x, back.y]);
                  }
                  return { hits, mappings }; })()
                """, as: Answer.self)
            #expect(answer.hits == expectedHits)
            #expect(Set(expectedHits).count > 2, "the cases must cover hits on several quads and misses")
            for (mine, library) in zip(answer.mappings, libraryMappings) {
                #expect(zip(mine, library).allSatisfy { abs($0 - $1) < 1e-9 }, "\(mine) vs \(library)")
            }
        }
    }

    // MARK: Helpers

    private func decodedCodes(in png: [UInt8]) throws -> [ReadResult] {
        QRCodeReader().read(try ImageDecoder().decodeGray(png).image)
    }

    /// Waits for Chromium to finish writing a download.
    private func waitForFile(_ url: URL) async throws -> Data {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(30)
        while clock.now < deadline {
            if let data = try? Data(contentsOf: url), !data.isEmpty { return data }
            try await Task.sleep(for: .milliseconds(100))
        }
        let found = (try? FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)) ?? []
        throw Chromium.Failure("\(url.lastPathComponent) was not downloaded; the folder holds \(found)")
    }

    /// A 640 × 480 camera picture with a code at `origin`, or centred when nil.
    private func cameraFrame(text: String, at origin: (Int, Int)?, moduleSize: Int) throws -> GrayImage {
        let code = GrayImage(try RasterRenderer.image(for: QRCode.encode(text), style: RenderStyle(sizing: .moduleSize(moduleSize))))
        var frame = try GrayImage(width: 640, height: 480, value: 235)
        let x0 = origin?.0 ?? (640 - code.width) / 2
        let y0 = origin?.1 ?? (480 - code.height) / 2
        for y in 0..<code.height {
            for x in 0..<code.width { frame[x0 + x, y0 + y] = code[x, y] }
        }
        return frame
    }
}
