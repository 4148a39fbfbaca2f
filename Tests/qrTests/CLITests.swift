import Foundation
import QRCore
import QREncoder
import QRImage
import QRTestSupport
import Testing

/// Runs the built `qr` executable (it sits beside the test bundle).
struct CLI {
    static let executable: URL = {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        // `swift test` runs the bundle from .build/<triple>/debug; the executable is in the same folder.
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("qr").path),
              directory.pathComponents.count > 1 {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("qr")
    }()

    struct Output {
        let status: Int32
        let stdout: Data
        let stderr: String
        var text: String { String(decoding: stdout, as: UTF8.self) }
    }

    static func run(_ arguments: [String], stdin: Data? = nil) throws -> Output {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: stdout, stderr: String(decoding: stderr, as: UTF8.self))
    }
}

/// Runs `body` with a fresh empty directory, and removes the directory afterwards, whatever `body` does.
func withTemporaryDirectory<Result>(_ body: (URL) throws -> Result) throws -> Result {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("qrkit-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: url) }
    return try body(url)
}

@Suite("qr command line")
struct CLITests {
    @Test func makeThenReadRoundTrips() throws {
        try withTemporaryDirectory { dir in
            let png = dir.appendingPathComponent("hello.png").path
            let made = try CLI.run(["make", "Hello, 世界", "-o", png])
            #expect(made.status == 0, "\(made.stderr)")
            let read = try CLI.run(["read", png])
            #expect(read.status == 0)
            #expect(read.text == "Hello, 世界\n")
        }
    }

    /// A code in a GIF and in a BMP: both decode to the picture's exact gray pixels, and `qr read` reads them.
    @Test func readsGIFAndBMP() throws {
        var scene = SyntheticScene(width: 160, height: 160)
        scene.place(try QRCode.encode("GIF or BMP").modules, center: Point(80, 80), moduleSize: 4, degrees: 5)
        let files = [("code.gif", GIFFile.gray(width: 160, height: 160, pixels: scene.pixels, interlaced: true).bytes),
                     ("code.bmp", BMPFile.gray(width: 160, height: 160, pixels: scene.pixels).bytes)]
        try withTemporaryDirectory { dir in
            for (name, bytes) in files {
                #expect(try ImageDecoder().decodeGray(bytes).image.pixels == scene.pixels)
                let url = dir.appendingPathComponent(name)
                try Data(bytes).write(to: url)
                let read = try CLI.run(["read", url.path])
                #expect(read.status == 0, "\(read.stderr)")
                #expect(read.text == "GIF or BMP\n")
            }
        }
    }

    /// A code in a CCITT Group 4 TIFF (as scanners and fax software write them) and in an LZW RGB TIFF: both
    /// decode to the picture's pixels and `qr read` reads them. With an Orientation field, the corners are also
    /// given as the image is displayed, as for a JPEG's Exif orientation.
    @Test func readsTIFF() throws {
        var scene = SyntheticScene(width: 160, height: 160)
        scene.place(try QRCode.encode("TIFF scan").modules, center: Point(80, 80), moduleSize: 4, degrees: 5)
        let black = scene.pixels.map { UInt8($0 < 128 ? 1 : 0) }
        let fax = TIFFFile.bilevel(width: 160, height: 160, pixels: black, coding: .group4)
        let files = [("scan.tif", fax.bytes, black.map { $0 == 1 ? 0 : 255 }),
                     ("photo.tiff", TIFFFile.rgbLZW(width: 160, height: 160, pixels: scene.pixels.flatMap { [$0, $0, $0] },
                                                    predictor: true).bytes, scene.pixels)]
        try withTemporaryDirectory { dir in
            for (name, bytes, pixels) in files {
                #expect(try ImageDecoder().decodeGray(bytes).image.pixels == pixels)
                let url = dir.appendingPathComponent(name)
                try Data(bytes).write(to: url)
                let read = try CLI.run(["read", url.path])
                #expect(read.status == 0, "\(read.stderr)")
                #expect(read.text == "TIFF scan\n")
            }

            var turned = fax
            turned.set(TIFFFile.Field(274, [6]))
            let url = dir.appendingPathComponent("turned.tif")
            try Data(turned.bytes).write(to: url)
            let read = try CLI.run(["read", "--json", url.path])
            let object = try #require(try JSONSerialization.jsonObject(with: read.stdout) as? [String: Any])
            #expect(object["text"] as? String == "TIFF scan")
            #expect(object["exif_orientation"] as? Int == 6)
            let stored = try #require(object["corners"] as? [[Double]]), oriented = try #require(object["corners_oriented"] as? [[Double]])
            #expect(oriented == stored.map { corner in
                let point = ExifOrientation.right.displayPoint(fromStored: Point(corner[0], corner[1]), storedWidth: 160, storedHeight: 160)
                return [point.x, point.y]
            })
        }
    }

    @Test func matrixFormatForTheReferenceChecker() throws {
        let result = try CLI.run(["make", "-", "--format", "matrix", "--quiet-zone", "0", "--level", "L", "--version", "1", "--mask", "3"],
                                 stdin: Data(":A36+1W8U BN*X".utf8))
        #expect(result.status == 0)
        let rows = result.text.split(separator: "\n")
        #expect(rows.count == 21)
        #expect(rows.first == "111111101100101111111")
        #expect(rows.allSatisfy { $0.count == 21 && $0.allSatisfy { "01".contains($0) } })
    }

    @Test func readJSONLinesAndExitStatus() throws {
        try withTemporaryDirectory { dir in
            let png = dir.appendingPathComponent("a.png").path
            _ = try CLI.run(["make", "JSON please", "-o", png, "--module-size", "4"])
            let result = try CLI.run(["read", "--json", png])
            #expect(result.status == 0)
            let object = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
            #expect(object["text"] as? String == "JSON please")
            #expect(object["image"] as? String == png)
            #expect((object["corners"] as? [[Double]])?.count == 4)
            #expect(object["level"] as? String == "M")
            #expect(object["decode_ms"] is Double)
            #expect(object["timed_out"] as? Bool == false)
            #expect(try CLI.run(["read", "--time-budget", "60000", png]).text == "JSON please\n")
            #expect(try CLI.run(["read", "--no-downscale", "--no-inverted", png]).text == "JSON please\n")
            #expect(try CLI.run(["read", "--mixed-polarity", png]).text == "JSON please\n")
            #expect(try CLI.run(["read", "--mixed-polarity", "--no-inverted", png]).stderr.contains("--no-inverted leaves out"))
            // A budget too small for any pass: nothing found, and the image named as cut short.
            let cut = try CLI.run(["read", "--json", "--time-budget", "0.000001", png])
            #expect(cut.status == 1)
            let cutObject = try #require(try JSONSerialization.jsonObject(with: cut.stdout) as? [String: Any])
            #expect(cutObject["timed_out"] as? Bool == true)
            #expect((cutObject["results"] as? [Any])?.isEmpty == true)
            #expect(cut.stderr.contains("\(png): the time budget ran out"))
            for budget in ["0", "-5", "nan"] {
                #expect(try CLI.run(["read", "--time-budget=\(budget)", png]).stderr.contains("--time-budget must be a positive number"))
            }

            let blank = dir.appendingPathComponent("blank.pgm")
            try Data("P5\n40 40\n255\n".utf8 + [UInt8](repeating: 200, count: 1600)).write(to: blank)
            #expect(try CLI.run(["read", blank.path]).status == 1)
            let missing = try CLI.run(["read", dir.appendingPathComponent("none.png").path])
            #expect(missing.status == 2)
            #expect(!missing.stderr.isEmpty)

            // The list of images from standard input; an unreadable list is an error (2).
            let listed = try CLI.run(["read", "--list", "-"], stdin: Data("\(png)\n".utf8))
            #expect(listed.text == "JSON please\n")
            #expect(try CLI.run(["read", "--list", "/dev/stdin"], stdin: Data("\(png)\n".utf8)).text == "JSON please\n")
            let noList = try CLI.run(["read", "--list", dir.appendingPathComponent("none.txt").path])
            #expect(noList.status == 2)
            #expect(noList.stderr.contains("none.txt"))
            #expect(try CLI.run(["read", "-", "--list", "-"]).status == 64)
        }
    }

    @Test func benchReadTimesEachImageFromMemory() throws {
        try withTemporaryDirectory { dir in
            let png = dir.appendingPathComponent("bench.png").path
            _ = try CLI.run(["make", "time me", "-o", png])
            let blank = dir.appendingPathComponent("blank.pgm")
            try Data("P5\n64 64\n255\n".utf8 + [UInt8](repeating: 255, count: 64 * 64)).write(to: blank)
            let result = try CLI.run(["bench", "read", "--runs", "3", png, blank.path])
            #expect(result.status == 0, "\(result.stderr)")
            let lines = result.text.split(separator: "\n")
            #expect(lines.count == 2)
            let objects = try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
            #expect(objects.map { $0["image"] as? String } == [png, blank.path])
            #expect(objects.map { $0["codes"] as? Int } == [1, 0])
            for object in objects {
                let best = try #require(object["best_ms"] as? Double), median = try #require(object["median_ms"] as? Double)
                #expect(best > 0 && best <= median)
            }
            let missing = try CLI.run(["bench", "read", dir.appendingPathComponent("none.png").path])
            #expect(missing.status == 2)
            #expect(missing.stderr.contains("none.png"))
        }
    }

    @Test func splitWritesNumberedLinkedSymbols() throws {
        try withTemporaryDirectory { dir in
            let text = String(repeating: "Structured Append joins linked symbols. ", count: 30)
            let made = try CLI.run(["make", text, "--split", "3", "-o", dir.appendingPathComponent("part.png").path])
            #expect(made.status == 0, "\(made.stderr)")
            var joined = ""
            for i in 1...3 {
                let read = try CLI.run(["read", "--json", dir.appendingPathComponent("part-\(i).png").path])
                let object = try #require(try JSONSerialization.jsonObject(with: read.stdout) as? [String: Any])
                let header = try #require(object["structured_append"] as? [String: Int])
                #expect(header["index"] == i - 1)
                #expect(header["count"] == 3)
                joined += object["text"] as? String ?? ""
            }
            #expect(joined == text)
        }
    }

    @Test func benchMakeChecksItsOptions() throws {
        for seconds in ["nan", "inf", "0", "-1", "601"] {
            let result = try CLI.run(["bench", "make", "--seconds=\(seconds)"])
            #expect(result.status == 64)
            #expect(result.stderr.contains("--seconds must be above 0"))
        }
        #expect(try CLI.run(["bench", "make", "--only", "foo"]).status == 64)
        #expect(try CLI.run(["bench", "make", "--print-payload", "url"]).text == "https://example.com/qrkit?id=12345\n")
        let short = try CLI.run(["bench", "make", "--only", "url", "--seconds", "0.01"])
        #expect(short.status == 0)
        #expect(short.text.hasPrefix("qr short-url-M version=3 codes_per_second="))
    }

    @Test func makeWritesToStandardOutputWithADash() throws {
        try withTemporaryDirectory { dir in
            let piped = try CLI.run(["make", "dash", "-o", "-", "--format", "png"])
            #expect(piped.status == 0)
            #expect(piped.stdout.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
            let png = dir.appendingPathComponent("dash.png")
            try piped.stdout.write(to: png)
            #expect(try CLI.run(["read", png.path]).text == "dash\n")
        }
    }

    @Test func makeWarnsOfACharsetReadersDoNotGuess() throws {
        let cyrillic = try CLI.run(["make", "Привет", "--charset", "windows-1251", "--format", "matrix"])
        #expect(cyrillic.status == 0)
        #expect(cyrillic.stderr.contains("add --eci 22"))
        // With its ECI, in a charset readers guess, or in plain ASCII: no warning.
        for arguments in [["Привет", "--charset", "windows-1251", "--eci", "22"], ["Grüße", "--charset", "ISO-8859-1"],
                          ["hello", "--charset", "windows-1251"]] {
            let result = try CLI.run(["make"] + arguments + ["--format", "matrix"])
            #expect(result.status == 0)
            #expect(result.stderr.isEmpty, "\(arguments)")
        }
    }

    @Test(arguments: [["--version", "0"], ["--version", "41"], ["--version", "3-50"], ["--quiet-zone=-1"], ["--logo-share", "10"]])
    func makeOptionsOutOfRangeAreUsageErrors(arguments: [String]) throws {
        let result = try CLI.run(["make", "x", "--format", "matrix"] + arguments)
        #expect(result.status == 64)
        #expect(!result.stderr.contains("warning"))
    }

    @Test func errorsGoToStandardErrorWithNonZeroStatus() throws {
        let tooLong = try CLI.run(["make", String(repeating: "x", count: 3000), "--level", "H", "--format", "matrix"])
        #expect(tooLong.status != 0)
        #expect(tooLong.stderr.contains("1273 bytes"))
        #expect(tooLong.stdout.isEmpty)
        let badMask = try CLI.run(["make", "x", "--mask", "9", "--format", "matrix"])
        #expect(badMask.status != 0)
        #expect(badMask.stderr.contains("0…7"))
        let latin1 = try CLI.run(["make", "二维码", "--charset", "ISO-8859-1", "--format", "matrix"])
        #expect(latin1.status != 0)
        #expect(latin1.stderr.contains("ISO-8859-1"))
    }

    @Test func helpHasExamples() throws {
        let help = try CLI.run(["make", "--help"])
        #expect(help.status == 0)
        #expect(help.text.contains("Examples:"))
        for option in ["--level", "--version", "--mask", "--boost", "--eci", "--charset", "--kanji", "--module-size",
                       "--size", "--quiet-zone", "--foreground", "--background", "--logo", "--split", "--format"] {
            #expect(help.text.contains(option), "\(option)")
        }
    }
}
