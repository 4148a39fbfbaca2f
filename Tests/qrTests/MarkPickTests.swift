import Foundation
import QRCore
import QREncoder
import QRImage
import QRTestSupport
import Testing

/// A PGM photo with two codes side by side (the seeds' Alipay and WeChat case), and where they are.
func twoCodePhoto(in dir: URL) throws -> (path: String, left: Point, right: Point) {
    var scene = SyntheticScene(width: 520, height: 260)
    scene.place(try QRCode.encode("https://pay.example/alipay").modules, center: Point(130, 130), moduleSize: 5)
    scene.place(try QRCode.encode("https://pay.example/wechat").modules, center: Point(390, 130), moduleSize: 5, degrees: 8)
    let url = dir.appendingPathComponent("two.pgm")
    try (Data("P5\n520 260\n255\n".utf8) + scene.pixels).write(to: url)
    return (url.path, Point(130, 130), Point(390, 130))
}

@Suite("qr mark and qr pick")
struct MarkPickTests {
    @Test func pickNeedsAChoiceWithoutATerminal() throws {
        try withTemporaryDirectory { dir in
            let photo = try twoCodePhoto(in: dir)
            let result = try CLI.run(["pick", photo.path])
            #expect(result.status == 3)
            #expect(result.stderr.contains("1. https://pay.example/alipay"))
            #expect(result.stderr.contains("2. https://pay.example/wechat"))
        }
    }

    @Test func pickByIndexAndByPoint() throws {
        try withTemporaryDirectory { dir in
            let photo = try twoCodePhoto(in: dir)
            #expect(try CLI.run(["pick", photo.path, "--index", "2"]).text == "https://pay.example/wechat\n")
            #expect(try CLI.run(["pick", photo.path, "--at", "140,120"]).text == "https://pay.example/alipay\n")
            // Just outside the right code's quiet zone edge, within the tolerance.
            #expect(try CLI.run(["pick", photo.path, "--at", "320,130", "--tolerance", "15"]).text == "https://pay.example/wechat\n")
            let miss = try CLI.run(["pick", photo.path, "--at", "260,10"])
            #expect(miss.status == 3)
            // Any finite point is a point, however far outside the photo: no code there.
            let far = try CLI.run(["pick", photo.path, "--at", "1e300,-1e19"])
            #expect(far.status == 3)
            #expect(far.stderr.contains("No code at 1e300,-1e19"))
            #expect(try CLI.run(["pick", photo.path, "--at", "1,2", "--tolerance", "nan"]).status == 64)
            #expect(try CLI.run(["pick", photo.path, "--index", "5"]).status == 3)
        }
    }

    @Test func oneCodeGoesStraightThrough() throws {
        try withTemporaryDirectory { dir in
            let png = dir.appendingPathComponent("one.png").path
            _ = try CLI.run(["make", "only one", "-o", png])
            let result = try CLI.run(["pick", png])
            #expect(result.status == 0)
            #expect(result.text == "only one\n")
        }
    }

    @Test func markThatCannotWriteItsOutputIsAnError() throws {
        try withTemporaryDirectory { dir in
            let photo = try twoCodePhoto(in: dir)
            let result = try CLI.run(["mark", photo.path, "-o", dir.appendingPathComponent("missing/marked.png").path])
            // 2 (an error), not 1 (no code found).
            #expect(result.status == 2)
            #expect(result.stderr.contains("Cannot write"))
        }
    }

    @Test func markOutlinesEachCodeInTheSeedColour() throws {
        try withTemporaryDirectory { dir in
            let photo = try twoCodePhoto(in: dir)
            let out = dir.appendingPathComponent("marked.png").path
            let result = try CLI.run(["mark", photo.path, "-o", out])
            #expect(result.status == 0)
            #expect(result.text.contains("1. https://pay.example/alipay"))
            // Every code's outline runs through #FF3B30 pixels: look along the vertical line through each centre.
            let image = try ImageDecoder().decodeRGBA(contentsOf: out).image
            let red = RGBAPixel(red: 0xFF, green: 0x3B, blue: 0x30)
            for centre in [photo.left, photo.right] {
                let column = Int(centre.x)
                let reds = (0..<image.height).filter { image[column, $0] == red }
                #expect(reds.contains { $0 < Int(centre.y) - 40 }, "outline above the code at \(centre)")
                #expect(reds.contains { $0 > Int(centre.y) + 40 }, "outline below the code at \(centre)")
            }
        }
    }
}
