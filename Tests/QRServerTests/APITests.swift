import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import QRCore
import QREncoder
import QRImage
import QRReader
import QRRender
import QRTestSupport
import Testing
@testable import QRServer

@Suite("Web API")
struct APITests {
    @Test func healthCarriesSecurityHeaders() async throws {
        try await withApp { client in
            let response = try await client.execute(uri: "/healthz", method: .get)
            #expect(response.status == .ok)
            let health = try JSONSerialization.jsonObject(with: Data(response.bytes)) as? [String: Any]
            #expect(health?["status"] as? String == "ok")
            #expect(health?["running"] as? Int == 0)
            #expect(response.headers[.contentSecurityPolicy] == SecurityHeaders.contentSecurityPolicy)
            #expect(response.headers[.contentSecurityPolicy]?.contains("script-src 'self'") == true)
            #expect(response.headers[.xContentTypeOptions] == "nosniff")
            #expect(response.headers[.referrerPolicy] == "no-referrer")
        }
    }

    @Test func encodeThenDecodeRoundTrip() async throws {
        let text = "Hello, 世界 — https://example.com/?q=1&r=2"
        try await withApp { client in
            let query = text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            let encoded = try await client.execute(uri: "/api/encode?text=\(query)&level=Q&moduleSize=5", method: .get)
            #expect(encoded.status == .ok)
            #expect(encoded.headers[.contentType] == "image/png")
            #expect(encoded.headers[HTTPField.Name("X-QR-Level")!] == "Q")
            #expect(encoded.headers[HTTPField.Name("X-QR-Module-Size")!] == "5")
            let version = try #require(encoded.headers[HTTPField.Name("X-QR-Version")!].flatMap { Int($0) })
            let side = (17 + 4 * version + 8) * 5
            #expect(encoded.headers[HTTPField.Name("X-QR-Image-Size")!] == "\(side)")
            #expect(encoded.headers[.contentSecurityPolicy] != nil)

            let decoded = try await client.execute(uri: "/api/decode", method: .post, headers: .contentType("image/png"),
                                                   body: ByteBuffer(encoded.bytes))
            #expect(decoded.status == .ok)
            let body = try decoded.json(DecodedBody.self)
            #expect(body.width == side && body.height == side)
            #expect(body.format == "png")
            let code = try #require(body.codes.first)
            #expect(body.codes.count == 1)
            #expect(code.text == text)
            #expect(Data(base64Encoded: code.bytesBase64) == Data(text.utf8))
            #expect(code.level == "Q")
            #expect(code.version == version)
            #expect(code.symbology == "QR Code" && code.versionName == "\(version)")
            #expect(code.columns == 17 + 4 * version && code.rows == code.columns)
            // The symbol starts after the 4-module quiet zone.
            #expect(abs(code.corners[0].x - 20) < 3 && abs(code.corners[0].y - 20) < 3)
            #expect(abs(code.bounds.width - Double(side - 40)) < 4)
        }
    }

    @Test func twoCodesComeBackWithTheirCorners() async throws {
        let (png, _) = try TestImages.twoCodes("LEFT code", "https://right.example")
        try await withApp { client in
            let response = try await client.execute(uri: "/api/decode", method: .post, headers: .contentType("image/png"),
                                                    body: ByteBuffer(png))
            #expect(response.status == .ok)
            let body = try response.json(DecodedBody.self)
            #expect(body.width == 600 && body.height == 300)
            #expect(Set(body.codes.map(\.text)) == ["LEFT code", "https://right.example"])
            #expect(!body.timedOut)
            for code in body.codes {
                #expect(code.corners.count == 4)
                let expectedLeft = code.text == "LEFT code" ? 20.0 + 12 : 320.0 + 12
                #expect(abs(code.corners[0].x - expectedLeft) < 3, "\(code.text): \(code.corners)")
                #expect(abs(code.corners[0].y - 52) < 3)
                // Corners go clockwise: top-right is to the right of top-left, bottom-left below it.
                #expect(code.corners[1].x > code.corners[0].x + 50)
                #expect(code.corners[3].y > code.corners[0].y + 50)
            }
        }
    }

    @Test func decodeOptionsLimitAndLocateTheSearch() async throws {
        let (png, _) = try TestImages.twoCodes("LEFT code", "RIGHT code")
        try await withApp { client in
            let one = try await client.execute(uri: "/api/decode?max=1&accuracy=fast", method: .post,
                                               headers: .contentType("image/png"), body: ByteBuffer(png))
            #expect(try one.json(DecodedBody.self).codes.count == 1)

            for region in ["0.5,0,0.5,1", "300,0,300,300"] {
                let right = try await client.execute(uri: "/api/decode?region=\(region)", method: .post,
                                                     headers: .contentType("image/png"), body: ByteBuffer(png))
                let codes = try right.json(DecodedBody.self).codes
                #expect(codes.map(\.text) == ["RIGHT code"], "region \(region)")
                // Corners stay in whole-image pixels.
                #expect((codes.first?.corners[0].x ?? 0) > 300)
            }
        }
    }

    @Test func multipartAndUntypedUploadsDecode() async throws {
        let png = try TestImages.png("multipart upload")
        try await withApp { client in
            var form = MultipartBody()
            form.field("note", "ignored")
            form.file("image", filename: "code.png", type: "image/png", png)
            let viaForm = try await client.execute(uri: "/api/decode", method: .post, headers: .contentType(form.contentType),
                                                   body: ByteBuffer(form.finished))
            #expect(try viaForm.json(DecodedBody.self).codes.map(\.text) == ["multipart upload"])

            let untyped = try await client.execute(uri: "/api/decode", method: .post, body: ByteBuffer(png))
            #expect(try untyped.json(DecodedBody.self).codes.map(\.text) == ["multipart upload"])

            let octets = try await client.execute(uri: "/api/decode", method: .post,
                                                  headers: .contentType("application/octet-stream"), body: ByteBuffer(png))
            #expect(try octets.json(DecodedBody.self).codes.count == 1)
        }
    }

    @Test func gifAndBMPUploadsDecode() async throws {
        let code = GrayImage(try RasterRenderer.image(for: QRCode.encode("GIF or BMP upload"), style: RenderStyle(sizing: .moduleSize(4))))
        let files = [("image/gif", GIFFile.gray(width: code.width, height: code.height, pixels: code.pixels).bytes),
                     ("image/bmp", BMPFile.gray(width: code.width, height: code.height, pixels: code.pixels).bytes)]
        try await withApp { client in
            for (type, bytes) in files {
                let response = try await client.execute(uri: "/api/decode", method: .post, headers: .contentType(type),
                                                        body: ByteBuffer(bytes: bytes))
                #expect(try response.json(DecodedBody.self).codes.map(\.text) == ["GIF or BMP upload"], "\(type)")
            }
        }
    }

    /// `picture` (black and white) as a Group 4 fax TIFF stored turned 90° counter-clockwise, displayed upright
    /// through Orientation 6.
    static func turnedFax(_ picture: GrayImage) -> TIFFFile {
        var stored = [UInt8](repeating: 0, count: picture.pixels.count)
        for y in 0..<picture.height {
            for x in 0..<picture.width {
                stored[(picture.width - 1 - x) * picture.height + y] = picture.pixels[y * picture.width + x] < 128 ? 1 : 0
            }
        }
        var file = TIFFFile.bilevel(width: picture.height, height: picture.width, pixels: stored, coding: .group4)
        file.set(TIFFFile.Field(274, [6]))
        return file
    }

    /// A Group 4 fax TIFF and an LZW TIFF decode; a TIFF's Orientation field is applied like a JPEG's.
    @Test func tiffUploadsDecodeWithTheirOrientation() async throws {
        let code = GrayImage(try RasterRenderer.image(for: QRCode.encode("TIFF upload"), style: RenderStyle(sizing: .moduleSize(5))))
        let black = code.pixels.map { UInt8($0 < 128 ? 1 : 0) }
        let turned = Self.turnedFax(code)
        let rgb = code.pixels.flatMap { [$0, $0, $0] }
        let files = [TIFFFile.bilevel(width: code.width, height: code.height, pixels: black, coding: .group4),
                     TIFFFile.rgbLZW(width: code.width, height: code.height, pixels: rgb, predictor: true), turned]
        try await withApp { client in
            for (index, file) in files.enumerated() {
                let response = try await client.execute(uri: "/api/decode", method: .post, headers: .contentType("image/tiff"),
                                                        body: ByteBuffer(bytes: file.bytes))
                let body = try response.json(DecodedBody.self)
                #expect(body.format == "tiff")
                #expect(body.orientation == (index == 2 ? 6 : 1))
                #expect(body.width == code.width && body.height == code.height)
                let decoded = try #require(body.codes.first, "file \(index)")
                #expect(decoded.text == "TIFF upload")
                // Upright as displayed: the symbol's top-left corner is at the top left, after the quiet zone.
                #expect(abs(decoded.corners[0].x - 20) < 4 && abs(decoded.corners[0].y - 20) < 4, "\(decoded.corners)")
            }
        }
    }

    /// A browser cannot show a TIFF or PNM file, so the scanner page asks for a PNG preview to draw the outlines
    /// on: the image as displayed (its orientation applied), shrunk to fit 2048 px; none for PNG, none unasked.
    @Test func previewOfImagesBrowsersCannotShow() async throws {
        let code = GrayImage(try RasterRenderer.image(for: QRCode.encode("scanned page"), style: RenderStyle(sizing: .moduleSize(5))))
        let turned = Self.turnedFax(code)
        let wide = PNMEncoder.encodePGM(try GrayImage(width: 5000, height: 40, value: 200))
        try await withApp { client in
            func decode(_ bytes: [UInt8], query: String) async throws -> DecodedBody {
                try await client.execute(uri: "/api/decode" + query, method: .post, headers: .contentType("application/octet-stream"),
                                         body: ByteBuffer(bytes: bytes)).json(DecodedBody.self)
            }
            let body = try await decode(turned.bytes, query: "?preview=true")
            let url = try #require(body.preview)
            #expect(url.hasPrefix("data:image/png;base64,"))
            let png = try #require(Data(base64Encoded: String(url.dropFirst("data:image/png;base64,".count))))
            let preview = try ImageDecoder().decodeGray(Array(png)).image
            #expect(preview == code, "the preview is the picture upright, where the corners are")

            let shrunk = try #require(try await decode(wide, query: "?preview=true").preview)
            let small = try ImageDecoder().decodeGray(Array(try #require(Data(base64Encoded: String(shrunk.dropFirst(22)))))).image
            #expect(small.width == 1667 && small.height == 14)

            #expect(try await decode(turned.bytes, query: "").preview == nil)
            #expect(try await decode(try PNGEncoder.encode(code), query: "?preview=true").preview == nil)
        }
    }

    @Test func exifOrientationIsAppliedToCorners() async throws {
        let (jpeg, displayed) = try TestImages.jpegWithOrientation6("turned photo")
        try await withApp { client in
            let response = try await client.execute(uri: "/api/decode", method: .post, headers: .contentType("image/jpeg"),
                                                    body: ByteBuffer(jpeg))
            let body = try response.json(DecodedBody.self)
            #expect(body.orientation == 6)
            #expect(body.width == displayed.width && body.height == displayed.height)
            let code = try #require(body.codes.first)
            #expect(code.text == "turned photo")
            // Upright as displayed: the symbol's top-left corner is at the top left, after the quiet zone.
            #expect(abs(code.corners[0].x - 20) < 4 && abs(code.corners[0].y - 20) < 4, "\(code.corners)")
            #expect(code.mirrored == false)
        }
    }

    @Test func noCodeIsAnEmptyListNotAnError() async throws {
        let blank = try PNGEncoder.encode(GrayImage(width: 64, height: 64))
        try await withApp { client in
            let response = try await client.execute(uri: "/api/decode", method: .post, headers: .contentType("image/png"),
                                                    body: ByteBuffer(blank))
            #expect(response.status == .ok)
            #expect(try response.json(DecodedBody.self).codes.isEmpty)
            #expect(try response.json(DecodedBody.self).timedOut == false)
        }
    }

    /// A search the server's decode budget cuts short says so, so the page can tell the user why nothing was found.
    @Test func aDecodeCutShortByTheTimeBudgetSaysSo() async throws {
        let (png, _) = try TestImages.twoCodes("LEFT code", "RIGHT code")
        try await withApp(QRServerConfiguration(decodeTimeBudget: .nanoseconds(1))) { client in
            let response = try await client.execute(uri: "/api/decode", method: .post, headers: .contentType("image/png"),
                                                    body: ByteBuffer(png))
            #expect(response.status == .ok)
            let body = try response.json(DecodedBody.self)
            #expect(body.codes.isEmpty)
            #expect(body.timedOut)
        }
    }

    @Test func encodeFormatsFollowFormatThenAccept() async throws {
        try await withApp { client in
            let svg = try await client.execute(uri: "/api/encode?text=svg", method: .get, headers: [.accept: "image/svg+xml"])
            #expect(svg.headers[.contentType] == "image/svg+xml; charset=utf-8")
            #expect(svg.text.contains("<svg") && svg.text.contains("crispEdges"))

            let browserImage = try await client.execute(
                uri: "/api/encode?text=img", method: .get,
                headers: [.accept: "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8"])
            #expect(browserImage.headers[.contentType] == "image/png")

            let json = try await client.execute(uri: "/api/encode?text=12345&format=json&level=H&quietZone=2",
                                                method: .get, headers: [.accept: "image/png"])
            #expect(json.headers[.contentType] == "application/json; charset=utf-8")
            let metadata = try #require(try JSONSerialization.jsonObject(with: Data(json.bytes)) as? [String: Any])
            #expect(metadata["version"] as? Int == 1)
            #expect(metadata["level"] as? String == "H")
            #expect(metadata["modules"] as? Int == 21)
            #expect(metadata["quietZone"] as? Int == 2)
            #expect((metadata["matrix"] as? [String])?.count == 21)
            #expect((metadata["warnings"] as? [String])?.count == 1)  // the narrow quiet zone
            #expect(json.headers[HTTPField.Name("X-QR-Warnings")!]?.contains("%20") == true)
        }
    }

    @Test func encodeBodiesJSONFormAndMultipartWithLogo() async throws {
        try await withApp { client in
            let json = try await client.execute(uri: "/api/encode?text=query&level=L", method: .post,
                                                headers: .contentType("application/json"),
                                                body: ByteBuffer(Array(#"{"text": "from JSON", "moduleSize": 3, "boost": false}"#.utf8)))
            #expect(json.status == .ok)
            #expect(json.headers[HTTPField.Name("X-QR-Module-Size")!] == "3")
            #expect(json.headers[HTTPField.Name("X-QR-Level")!] == "L")  // from the query, not overridden
            try await expectDecodes(json.bytes, to: "from JSON", client: client)

            let form = try await client.execute(uri: "/api/encode", method: .post,
                                                headers: .contentType("application/x-www-form-urlencoded"),
                                                body: ByteBuffer(Array("text=a+b%26c&format=svg".utf8)))
            #expect(form.headers[.contentType] == "image/svg+xml; charset=utf-8")

            let logo = try PNGEncoder.encode(RGBAImage(width: 40, height: 40, color: RGBAPixel(red: 200, green: 30, blue: 30, alpha: 255)))
            var multipart = MultipartBody()
            multipart.field("text", "https://example.com/with-a-logo")
            multipart.field("moduleSize", "6")
            multipart.file("logo", filename: "logo.png", type: "image/png", logo)
            let withLogo = try await client.execute(uri: "/api/encode", method: .post,
                                                    headers: .contentType(multipart.contentType),
                                                    body: ByteBuffer(multipart.finished))
            #expect(withLogo.status == .ok, "\(withLogo.text)")
            #expect(withLogo.headers[HTTPField.Name("X-QR-Level")!] == "H")
            #expect(withLogo.headers[HTTPField.Name("X-QR-Logo-Share")!] != nil)
            try await expectDecodes(withLogo.bytes, to: "https://example.com/with-a-logo", client: client)

            var emptyLogo = MultipartBody()
            emptyLogo.field("text", "no logo chosen")
            emptyLogo.file("logo", filename: "", type: "application/octet-stream", [])
            let noLogo = try await client.execute(uri: "/api/encode", method: .post,
                                                  headers: .contentType(emptyLogo.contentType), body: ByteBuffer(emptyLogo.finished))
            #expect(noLogo.headers[HTTPField.Name("X-QR-Level")!] == "M")
        }
    }

    @Test func blankOptionalFieldsMeanNotGiven() async throws {
        let png = try TestImages.png("blank fields")
        try await withApp { client in
            let encoded = try await client.execute(uri: "/api/encode?text=blank&version=&moduleSize=&level=%20", method: .get)
            #expect(encoded.status == .ok)
            #expect(encoded.headers[HTTPField.Name("X-QR-Module-Size")!] == "8")
            let decoded = try await client.execute(uri: "/api/decode?max=&region=&accuracy=", method: .post,
                                                   headers: .contentType("image/png"), body: ByteBuffer(png))
            #expect(try decoded.json(DecodedBody.self).codes.map(\.text) == ["blank fields"])
        }
    }

    @Test func headRequestsAndMethodsAllowed() async throws {
        try await withApp { client in
            let head = try await client.execute(uri: "/api/encode?text=head", method: .head)
            #expect(head.status == .ok)
            #expect(head.headers[HTTPField.Name("X-QR-Version")!] == "1")
            for (path, method, allowed) in [("/api/decode", HTTPRequest.Method.get, "POST"), ("/api/encode", .delete, "GET, HEAD, POST"),
                                            ("/healthz", .post, "GET, HEAD"), ("/scanner", .put, "GET, HEAD")] {
                let wrong = try await client.execute(uri: path, method: method)
                #expect(wrong.status == .methodNotAllowed, "\(method) \(path)")
                #expect(wrong.headers[.allow] == allowed)
                #expect(try wrong.apiError().code == "method_not_allowed")
            }
        }
    }

    private func expectDecodes(_ png: [UInt8], to text: String, client: some TestClientProtocol) async throws {
        let decoded = try await client.execute(uri: "/api/decode", method: .post, headers: .contentType("image/png"),
                                               body: ByteBuffer(png))
        #expect(try decoded.json(DecodedBody.self).codes.map(\.text) == [text])
    }
}

@Suite("Pages and assets")
struct PageTests {
    @Test(arguments: ["/", "/scanner"])
    func pagesUseOnlyExternalScriptsAndStyles(path: String) async throws {
        try await withApp { client in
            let response = try await client.execute(uri: path, method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "text/html; charset=utf-8")
            let html = response.text
            // The CSP forbids inline code; the pages must not need any.
            let scripts = html.components(separatedBy: "<script").dropFirst()
            #expect(!scripts.isEmpty)
            for script in scripts {
                #expect(script.hasPrefix(" type=\"module\" src=\"/assets/"), "\(script.prefix(60))")
                #expect(script.contains("></script>"))
            }
            #expect(!html.contains("<style"))
            #expect(!html.contains(" style="))
            #expect(html.range(of: #"\son[a-z]+\s*="#, options: .regularExpression) == nil, "inline event handler")
            // Nothing from other servers (no CDNs).
            #expect(html.range(of: #"(src|href)\s*=\s*"(https?:)?//"#, options: .regularExpression) == nil)
        }
    }

    @Test func assetsHaveTypesAndValidators() async throws {
        try await withApp { client in
            for (path, type) in [("/assets/app.css", "text/css; charset=utf-8"),
                                 ("/assets/scanner.js", "text/javascript; charset=utf-8"),
                                 ("/assets/geometry.js", "text/javascript; charset=utf-8"),
                                 ("/assets/icon.svg", "image/svg+xml"),
                                 ("/openapi.yaml", "application/yaml; charset=utf-8")] {
                let response = try await client.execute(uri: path, method: .get)
                #expect(response.status == .ok, "\(path)")
                #expect(response.headers[.contentType] == type, "\(path)")
                let etag = try #require(response.headers[.eTag])
                let again = try await client.execute(uri: path, method: .get, headers: [.ifNoneMatch: etag])
                #expect(again.status == .notModified)
                #expect(again.body.readableBytes == 0)
            }
            let openAPI = try await client.execute(uri: "/openapi.yaml", method: .get)
            for route in ["/api/decode:", "/api/encode:", "/healthz:", "X-QR-Version"] {
                #expect(openAPI.text.contains(route))
            }
        }
    }

    @Test func unknownPathsAreJSON404s() async throws {
        try await withApp { client in
            for path in ["/nothing", "/assets/missing.js", "/assets/..%2Fopenapi.yaml", "/assets/"] {
                let response = try await client.execute(uri: path, method: .get)
                #expect(response.status == .notFound, "\(path)")
                #expect(try response.apiError().code == "not_found")
                #expect(response.headers[.contentSecurityPolicy] != nil)
            }
        }
    }
}
