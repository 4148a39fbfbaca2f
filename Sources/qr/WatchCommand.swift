import ArgumentParser
import Foundation
import QRKit
import QRVideo

/// `qr watch`: report QR codes as they appear in a video stream.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Report QR codes as they appear in a live camera or video stream.",
        discussion: """
            The input is a Y4M stream, as ffmpeg writes it with -f yuv4mpegpipe (-pix_fmt gray is the \
            lightest; yuv420p and the other Y4M colour spaces work too, only the luma plane is used), or raw \
            8-bit gray frames with --size. Frames are decoded with the fast reader. Each code is printed once, \
            when it first appears; the same text is printed again only after it has been out of sight for \
            longer than --repeat-after seconds of stream time.

            Pacing: a pipe or a device is live input. Frames are read as they arrive and the reader always \
            takes the newest one; frames that arrive while it is busy are skipped, never queued, and each \
            decode gets about one frame interval (at least 100 ms; or --time-budget). A regular file is decoded frame by \
            frame, every frame, without a time budget, so that results do not depend on the machine. --realtime plays any input at its frame rate as live \
            input; --every-frame decodes every frame of a pipe too, making the program that writes it wait.

            At the end, a summary goes to standard error (frames read, decoded, cut short by the time budget and skipped; codes found).
            Exit status: 0 when a code was found, 1 when none was, 2 on errors (bad or truncated stream).

            Examples:
              ffmpeg -v error -f v4l2 -i /dev/video0 -pix_fmt gray -f yuv4mpegpipe - \\
                | qr watch --once
              ffmpeg -v error -i clip.mp4 -pix_fmt gray -f yuv4mpegpipe - \\
                | qr watch --every-frame --json
              qr watch recording.y4m --roi 0.25,0.25,0.5,0.5
              ffmpeg -v error -i clip.mp4 -pix_fmt gray -f rawvideo - \\
                | qr watch --size 1280x720 --fps 30 --every-frame
            """)

    @Argument(help: "A Y4M file, or raw gray frames with --size; - (the default) reads standard input.")
    var input: String = "-"

    @Option(name: .long, help: "Read raw 8-bit gray frames of this size (WxH) instead of Y4M.")
    var size: FrameSizeArgument?

    @Option(name: .long, help: "Frame rate of raw frames: 30, 29.97 or 30000/1001 (default 25). Y4M streams carry their own.")
    var fps: FrameRateArgument?

    @Option(name: .long, help: "Search only this region: x,y,w,h as fractions (0…1) or pixels.")
    var roi: RegionArgument?

    @Option(name: .long, help: "Most milliseconds to spend on one frame (default: one frame interval, at least 100, for live input; no limit for files).")
    var timeBudget: Double?

    @Option(name: .long, help: "Seconds of stream time a code must be out of sight before it is reported again.")
    var repeatAfter: Double = 5

    @Flag(name: .long, help: "Exit at the first code.")
    var once = false

    @Flag(name: .long, help: "Print JSON Lines: one object per new code, with frame, timestamp, corners, version and level.")
    var json = false

    @Flag(name: .long, help: "Do not print the summary on standard error.")
    var quiet = false

    @Flag(name: .long, help: "Play the input at its frame rate as live input, skipping frames the reader cannot keep up with.")
    var realtime = false

    @Flag(name: .long, help: "Decode every frame, even from a pipe (its writer waits for the reader).")
    var everyFrame = false

    @Flag(name: .long, help: "Do not look for light-on-dark codes.")
    var noInverted = false

    func validate() throws {
        if fps != nil && size == nil { throw ValidationError("--fps is for raw frames (--size); Y4M streams carry their frame rate.") }
        if realtime && everyFrame { throw ValidationError("Give --realtime or --every-frame, not both.") }
        if !(repeatAfter >= 0 && repeatAfter <= 1e9) { throw ValidationError("--repeat-after must be a number of seconds, 0 or more.") }
        try TimeBudgetOption.validate(timeBudget)
    }

    func run() async throws {
        let file = try openInput()
        defer { if input != "-" { close(file.descriptor) } }
        let reader: any FrameReader
        do {
            if let size {
                reader = try RawFrameReader(fileDescriptor: file.descriptor, width: size.width, height: size.height,
                                            frameRate: fps?.rate ?? .default)
            } else {
                reader = Y4MReader(fileDescriptor: file.descriptor)
            }
        } catch {
            printError("qr watch: \(error)")
            throw ExitCode(2)
        }
        let live = realtime || !(file.isRegular || everyFrame)
        let options = ReaderOptions(accuracy: .fast, regionOfInterest: roi?.region, tryInverted: !noInverted,
                                    timeBudget: TimeBudgetOption.duration(timeBudget))
        let scanner = VideoScanner(options: options, repeatAfter: .nanoseconds(Int64(repeatAfter * 1e9)),
                                   pacing: live ? .latestFrame : .everyFrame)
        let frames = VideoFrames(reader)
        if realtime {
            try await watch(scanner.scan(RealtimeFrames(frames)))
        } else {
            try await watch(scanner.scan(frames))
        }
    }

    /// Prints each new code as it is found, then the summary; exits with the status the help describes.
    private func watch<Frames: AsyncSequence & Sendable>(_ scans: VideoScan<Frames>) async throws where Frames.Element == VideoFrame {
        var statistics = VideoScanStatistics()
        var reported = 0
        var failure: (any Error)?
        do {
            scanning: for try await scan in scans {
                statistics = scan.statistics
                for code in scan.newCodes {
                    report(code, in: scan)
                    reported += 1
                    if once { break scanning }
                }
            }
        } catch {
            failure = error
        }
        if !quiet {
            // Frames cut short say the budget is too small for the picture (a region of interest helps).
            let cutShort = statistics.framesTimedOut > 0 ? " (\(statistics.framesTimedOut) cut short by the time budget)" : ""
            printError("qr watch: \(statistics.framesRead) frames read, \(statistics.framesDecoded) decoded\(cutShort), "
                + "\(statistics.framesSkipped) skipped; \(reported) \(reported == 1 ? "code" : "codes") found")
        }
        if let failure {
            printError("qr watch: \(failure)")
            if case .notY4M? = failure as? VideoStreamError {
                printError("Convert video with: ffmpeg -i FILE -f yuv4mpegpipe -pix_fmt gray - | qr watch; for raw gray frames give --size WxH.")
            }
            throw ExitCode(2)
        }
        if reported == 0 { throw ExitCode(1) }
    }

    private func report(_ code: ReadResult, in scan: FrameScan) {
        if json {
            var object = JSONLine.fields(of: code)
            object["frame"] = .int(scan.frameIndex)
            object["timestamp"] = JSONLine.seconds(scan.timestamp.inSeconds)
            object["decode_ms"] = JSONLine.milliseconds(scan.decodeTime.inMilliseconds)
            object["timed_out"] = .bool(scan.timedOut)
            print(JSONValue.object(object).text)
        } else {
            // Payloads are data: on a terminal, control characters are shown escaped.
            print(isTerminal(STDOUT_FILENO) ? TerminalText.safe(code.text) : code.text)
        }
        // Whoever reads a pipe of detections wants each one now, not when a buffer fills.
        fflush(nil)
    }

    /// The input's file descriptor, and whether it is a regular file (which can be read at any pace).
    private func openInput() throws -> (descriptor: Int32, isRegular: Bool) {
        if input == "-" && isTerminal(STDIN_FILENO) {
            printError("qr watch: pipe a video stream into standard input, or give a file (see qr watch --help).")
            throw ExitCode(2)
        }
        let descriptor = input == "-" ? STDIN_FILENO : open(input, O_RDONLY)
        guard descriptor >= 0 else {
            printError("qr watch: Cannot open \"\(input)\": \(String(cString: strerror(errno))).")
            throw ExitCode(2)
        }
        var status = stat()
        let isRegular = fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
        return (descriptor, isRegular)
    }
}

/// `--size WxH` for raw frames.
struct FrameSizeArgument: ExpressibleByArgument {
    let width: Int
    let height: Int

    init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width > 0, height > 0 else { return nil }
        self.width = width
        self.height = height
    }
}

/// `--fps 30`, `29.97` or `30000/1001`.
struct FrameRateArgument: ExpressibleByArgument {
    let rate: FrameRate

    init?(argument: String) {
        guard let rate = FrameRate(parsing: argument) else { return nil }
        self.rate = rate
    }
}
