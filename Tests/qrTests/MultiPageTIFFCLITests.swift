import Foundation
import QRCore
import QREncoder
import QRImage
import QRTestSupport
import Testing

/// A 160×160 fax page (CCITT Group 4) holding one code with `text`, or none.
private func faxPage(_ text: String?) throws -> TIFFFile {
    var scene = SyntheticScene(width: 160, height: 160)
    if let text { scene.place(try QRCode.encode(text).modules, center: Point(80, 80), moduleSize: 4, degrees: 5) }
    return TIFFFile.bilevel(width: 160, height: 160, pixels: scene.pixels.map { $0 < 128 ? 1 : 0 }, coding: .group4)
}

/// Writes `bytes` to `name` in `dir` and returns its path.
private func write(_ bytes: [UInt8], _ name: String, in dir: URL) throws -> String {
    let url = dir.appendingPathComponent(name)
    try Data(bytes).write(to: url)
    return url.path
}

private func jsonLines(_ output: CLI.Output) throws -> [[String: Any]] {
    try output.text.split(separator: "\n").map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
}

@Suite("qr and multi-page TIFF")
struct MultiPageTIFFCLITests {
    /// `qr read` reads every page, and says on which page each code is; a single page keeps today's output.
    @Test func readFindsTheCodeOnEveryPageAndNamesItsPage() throws {
        try withTemporaryDirectory { dir in
            let fax = try write(MultiPageTIFF([try faxPage("first page"), try faxPage("second page")]).bytes, "fax.tif", in: dir)
            let json = try CLI.run(["read", "--json", fax])
            #expect(json.status == 0, "\(json.stderr)")
            let lines = try jsonLines(json)
            #expect(lines.map { $0["text"] as? String } == ["first page", "second page"])
            #expect(lines.map { $0["page"] as? Int } == [1, 2])
            #expect(lines.allSatisfy { $0["image"] as? String == fax && $0["decode_ms"] is Double })

            let text = try CLI.run(["read", fax])
            #expect(text.text == "\(fax), page 1: first page\n\(fax), page 2: second page\n")
            // Several files at once, pages in order, single-page files named as before.
            let png = dir.appendingPathComponent("one.png").path
            _ = try CLI.run(["make", "png code", "-o", png])
            let both = try CLI.run(["read", "--jobs", "2", png, fax])
            #expect(both.text == "\(png): png code\n\(fax), page 1: first page\n\(fax), page 2: second page\n")

            let single = try write(try faxPage("one page").bytes, "single.tif", in: dir)
            let singleJSON = try jsonLines(try CLI.run(["read", "--json", single]))
            #expect(singleJSON.count == 1)
            #expect(singleJSON.first?["page"] == nil)
            #expect(try CLI.run(["read", single]).text == "one page\n")
        }
    }

    /// A page without a code gets its own JSON line; a damaged page is an error of its own (exit status 2)
    /// that leaves the codes of the other pages printed.
    @Test func pagesWithoutCodesAndDamagedPagesAreReportedByPage() throws {
        try withTemporaryDirectory { dir in
            let blank = try write(MultiPageTIFF([try faxPage(nil), try faxPage("last page")]).bytes, "blank.tif", in: dir)
            let read = try CLI.run(["read", "--json", blank])
            #expect(read.status == 0)
            let lines = try jsonLines(read)
            #expect(lines.count == 2)
            #expect(lines.first?["page"] as? Int == 1)
            #expect((lines.first?["results"] as? [Any])?.isEmpty == true)
            #expect(lines.last?["text"] as? String == "last page")

            var damaged = try faxPage(nil)
            damaged.remove(256)
            let broken = try write(MultiPageTIFF([try faxPage("good page"), damaged]).bytes, "broken.tif", in: dir)
            let text = try CLI.run(["read", broken])
            #expect(text.status == 2)
            #expect(text.text == "\(broken), page 1: good page\n")
            #expect(text.stderr.contains("\(broken), page 2: The TIFF image is damaged: the ImageWidth field is missing."))
            let errors = try jsonLines(try CLI.run(["read", "--json", broken]))
            #expect(errors.last?["page"] as? Int == 2)
            #expect(errors.last?["error"] as? String == "The TIFF image is damaged: the ImageWidth field is missing.")
        }
    }

    /// The darkest-channel conversion a colour page is read again in comes from that page: a pale yellow code
    /// on page 2, which luminance loses, is read, behind a page of another code the same size.
    @Test func theDarkestChannelIsReadFromTheSamePage() throws {
        var scene = SyntheticScene(width: 200, height: 200, background: 255)
        scene.place(try QRCode.encode("pale yellow").modules, center: Point(100, 100), moduleSize: 6, quietZone: 4)
        let yellow = scene.pixels.flatMap { [255, 255, UInt8((200 + 55 * Double($0) / 255).rounded())] }
        var other = SyntheticScene(width: 200, height: 200, background: 255)
        other.place(try QRCode.encode("black").modules, center: Point(100, 100), moduleSize: 6, quietZone: 4)
        let pages = [TIFFFile(width: 200, height: 200, samples: 3, photometric: 2, chunks: [other.pixels.flatMap { [$0, $0, $0] }]),
                     TIFFFile(width: 200, height: 200, samples: 3, photometric: 2, chunks: [yellow])]
        try withTemporaryDirectory { dir in
            let path = try write(MultiPageTIFF(pages).bytes, "colour.tif", in: dir)
            let read = try CLI.run(["read", path])
            #expect(read.text == "\(path), page 1: black\n\(path), page 2: pale yellow\n")
            // Without the second conversion (the fast reader makes none), page 2 shows no code.
            #expect(try CLI.run(["read", "--accuracy", "fast", path]).text == "\(path), page 1: black\n")
        }
    }

    /// `qr mark` and `qr pick` read page 1 unless `--page N` says another; a page the file lacks is an error.
    @Test func markAndPickReadThePageAskedFor() throws {
        try withTemporaryDirectory { dir in
            var turned = try faxPage("second page")
            turned.set(TIFFFile.Field(274, [6]))
            let fax = try write(MultiPageTIFF([try faxPage("first page"), turned, try faxPage(nil)]).bytes, "fax.tif", in: dir)
            let out = dir.appendingPathComponent("marked.png").path
            let marked = try CLI.run(["mark", fax, "--page", "2", "-o", out])
            #expect(marked.status == 0, "\(marked.stderr)")
            #expect(marked.text == "1. second page\n")
            #expect(try ImageDecoder().decodeRGBA(contentsOf: out).image.width == 160)
            #expect(try CLI.run(["mark", fax, "-o", out]).text == "1. first page\n")
            let none = try CLI.run(["mark", fax, "--page", "3", "-o", out])
            #expect(none.status == 1)
            #expect(none.stderr.contains("No QR code found on page 3 of \(fax) (3 pages; choose another with --page N)."))

            #expect(try CLI.run(["pick", fax, "--page", "2"]).text == "second page\n")
            #expect(try CLI.run(["pick", fax]).text == "first page\n")
            let past = try CLI.run(["pick", fax, "--page", "4"])
            #expect(past.status == 2)
            #expect(past.stderr.contains("\(fax) has 3 pages; --page must be 1…3."))
            let png = dir.appendingPathComponent("one.png").path
            _ = try CLI.run(["make", "png code", "-o", png])
            let onePage = try CLI.run(["mark", png, "--page", "2", "-o", out])
            #expect(onePage.status == 2)
            #expect(onePage.stderr.contains("\(png) has one page; --page must be 1."))
            #expect(try CLI.run(["pick", fax, "--page", "0"]).status == 64)
        }
    }

    @Test func helpSaysEveryPageIsRead() throws {
        #expect(try CLI.run(["read", "--help"]).text.contains("Every page of a multi-page TIFF"))
        for command in ["mark", "pick"] {
            #expect(try CLI.run([command, "--help"]).text.contains("--page"))
        }
    }
}
