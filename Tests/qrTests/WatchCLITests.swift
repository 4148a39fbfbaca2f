import Foundation
import QRCore
import QREncoder
import QRTestSupport
import Testing

/// A small gray Y4M video: `first` on screen in frames 0…9 (moving), nothing in 10…14, `second` in 15…29
/// (rotating), with noise throughout.
func watchVideo(first: String = "first code", second: String = "second code", frames: Int = 30) throws -> Data {
    let codes = [try QRCode.encode(first), try QRCode.encode(second)]
    var bytes = Array("YUV4MPEG2 W160 H120 F10:1 Ip A1:1 Cmono\n".utf8)
    for index in 0..<frames {
        var scene = SyntheticScene(width: 160, height: 120)
        if index < 10 {
            scene.place(codes[0].modules, center: Point(70 + Double(index) * 2, 60), moduleSize: 3)
        } else if index >= 15 {
            scene.place(codes[1].modules, center: Point(80, 60), moduleSize: 3, degrees: Double(index - 15) * 6)
        }
        scene.addNoise(amplitude: 12, seed: UInt64(index))
        bytes += Array("FRAME\n".utf8) + scene.pixels
    }
    return Data(bytes)
}

@Suite("qr watch")
struct WatchCLITests {
    @Test func reportsEachCodeOnceThenSummarises() throws {
        try withTemporaryDirectory { dir in
            let file = dir.appendingPathComponent("video.y4m")
            try watchVideo().write(to: file)
            let result = try CLI.run(["watch", file.path])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.text == "first code\nsecond code\n")
            #expect(result.stderr.contains("30 frames read, 30 decoded, 0 skipped; 2 codes found"), "\(result.stderr)")
            let quiet = try CLI.run(["watch", file.path, "--quiet"])
            #expect(quiet.stderr.isEmpty)
            // A budget too small for any frame: the summary says why nothing was found.
            let starved = try CLI.run(["watch", file.path, "--time-budget", "0.000001"])
            #expect(starved.status == 1)
            #expect(starved.stderr.contains("30 frames read, 30 decoded (30 cut short by the time budget), 0 skipped; 0 codes found"),
                    "\(starved.stderr)")
        }
    }

    @Test func jsonLinesCarryFrameTimestampAndCorners() throws {
        try withTemporaryDirectory { dir in
            let file = dir.appendingPathComponent("video.y4m")
            try watchVideo().write(to: file)
            let result = try CLI.run(["watch", "--json", file.path])
            #expect(result.status == 0)
            let lines = result.text.split(separator: "\n")
            #expect(lines.count == 2)
            let objects = try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
            #expect(objects.map { $0["text"] as? String } == ["first code", "second code"])
            let second = try #require(objects.last)
            let frame = try #require(second["frame"] as? Int)
            #expect(frame >= 15)
            #expect(second["timestamp"] as? Double == Double(frame) / 10)
            #expect((second["corners"] as? [[Double]])?.count == 4)
            #expect(second["version"] as? String == "1")
            #expect(second["symbology"] as? String == "QR Code")
            #expect(second["level"] as? String == "M")
            #expect(second["bytes_hex"] as? String == "7365636f6e6420636f6465")
            #expect(second["timed_out"] as? Bool == false)
        }
    }

    @Test func onceStopsAtTheFirstCode() throws {
        try withTemporaryDirectory { dir in
            let file = dir.appendingPathComponent("video.y4m")
            try watchVideo().write(to: file)
            let result = try CLI.run(["watch", "--once", file.path])
            #expect(result.status == 0)
            #expect(result.text == "first code\n")
            #expect(result.stderr.contains("1 code found"))
        }
    }

    @Test func nothingFoundExitsOne() throws {
        try withTemporaryDirectory { dir in
            let file = dir.appendingPathComponent("blank.y4m")
            let blank = [UInt8](repeating: 200, count: 64 * 48)
            try Data(Array("YUV4MPEG2 W64 H48 F25:1 Cmono\n".utf8) + (0..<5).flatMap { _ in Array("FRAME\n".utf8) + blank }).write(to: file)
            let result = try CLI.run(["watch", file.path])
            #expect(result.status == 1)
            #expect(result.text.isEmpty)
            #expect(result.stderr.contains("5 frames read, 5 decoded, 0 skipped; 0 codes found"))
        }
    }

    @Test func standardInputAndRawFrames() throws {
        let video = try watchVideo()
        let piped = try CLI.run(["watch", "-", "--every-frame"], stdin: video)
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.text == "first code\nsecond code\n")
        // The same frames without Y4M headers.
        let headerLength = try #require(video.firstIndex(of: 0x0A)) + 1
        var raw = Data()
        for index in 0..<30 {
            let start = headerLength + index * (6 + 160 * 120) + 6
            raw += video[start..<start + 160 * 120]
        }
        let result = try CLI.run(["watch", "--size", "160x120", "--fps", "10", "--every-frame", "--json"], stdin: raw)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.text.split(separator: "\n").count == 2)
    }

    @Test func badStreamsExitTwoWithAClearMessage() throws {
        try withTemporaryDirectory { dir in
            let png = dir.appendingPathComponent("code.png")
            _ = try CLI.run(["make", "not a video", "-o", png.path])
            let notVideo = try CLI.run(["watch", png.path])
            #expect(notVideo.status == 2)
            #expect(notVideo.stderr.contains("not a Y4M (YUV4MPEG2) stream"), "\(notVideo.stderr)")
            #expect(notVideo.stderr.contains("ffmpeg"))

            // Cut inside frame 20: the codes before the cut are still reported.
            let video = try watchVideo()
            let headerLength = try #require(video.firstIndex(of: 0x0A)) + 1
            let cut = dir.appendingPathComponent("cut.y4m")
            try video.prefix(headerLength + 20 * (6 + 160 * 120) + 100).write(to: cut)
            let truncated = try CLI.run(["watch", cut.path])
            #expect(truncated.status == 2)
            #expect(truncated.text == "first code\nsecond code\n")
            #expect(truncated.stderr.contains("The stream ends in the middle of frame 20: 94 of its 19200 bytes arrived."), "\(truncated.stderr)")

            let noHeight = dir.appendingPathComponent("noheight.y4m")
            try Data("YUV4MPEG2 W160 F10:1\nFRAME\n".utf8).write(to: noHeight)
            let missing = try CLI.run(["watch", noHeight.path])
            #expect(missing.status == 2)
            #expect(missing.stderr.contains("The Y4M header has no height (tag H)."))

            let absent = try CLI.run(["watch", dir.appendingPathComponent("absent.y4m").path])
            #expect(absent.status == 2)
            #expect(absent.stderr.contains("Cannot open"))
        }
    }

    @Test func optionsAreChecked() throws {
        #expect(try CLI.run(["watch", "--fps", "30", "x.y4m"]).stderr.contains("--fps is for raw frames"))
        #expect(try CLI.run(["watch", "--realtime", "--every-frame", "x.y4m"]).status != 0)
        #expect(try CLI.run(["watch", "--size", "0x5", "x.y4m"]).status != 0)
        #expect(try CLI.run(["watch", "--repeat-after", "-1", "x.y4m"]).status != 0)
        let help = try CLI.run(["watch", "--help"])
        #expect(help.status == 0)
        #expect(help.text.contains("Examples:"))
        for option in ["--size", "--fps", "--roi", "--time-budget", "--repeat-after", "--once", "--json", "--quiet",
                       "--realtime", "--every-frame"] {
            #expect(help.text.contains(option), "\(option)")
        }
    }
}
