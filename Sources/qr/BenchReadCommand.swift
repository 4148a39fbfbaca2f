import ArgumentParser
import Foundation
import QRKit

/// `qr bench read`: the decode time of images held in memory, as peers' readers are timed.
struct BenchReadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "read",
        abstract: "Decode each image several times from memory and print its fastest and median decode times.",
        discussion: """
            Each image is loaded once (both grey conversions qr read may use), then decoded --runs times in a \
            row, one thread, so the time is the decoder's alone with the image and the reader's tables in \
            cache: how in-process peers such as zxing-cpp are timed on a preloaded image. qr read --json \
            reports a single decode right after the file was loaded, which also pays for the caches the \
            loading evicted. Prints JSON Lines {"image", "codes", "best_ms", "median_ms"}. Build with \
            -c release for meaningful numbers.
            """)

    @Argument(help: "Image files (PNG, JPEG, GIF, BMP, TIFF, PGM/PPM).")
    var images: [String] = []

    @Option(name: .long, help: "A file listing image paths, one per line; - reads the list from standard input.")
    var list: String?

    @Option(name: .long, help: "Decodes per image.")
    var runs: Int = 5

    @Option(name: .long, help: "fast or thorough (default).")
    var accuracy: ReaderOptions.Accuracy = .thorough

    func validate() throws {
        if images.isEmpty && list == nil { throw ValidationError("Give image files or --list FILE.") }
        if runs < 1 { throw ValidationError("--runs must be at least 1.") }
        try ImageList.validate(images, list: list)
    }

    func run() throws {
        let paths = try ImageList.paths(images, list: list)
        let reader = QRCodeReader(options: ReaderOptions(accuracy: accuracy))
        let decoder = ImageDecoder()
        let clock = ContinuousClock()
        var failed = false
        for path in paths {
            let gray: GrayImage
            do {
                gray = try decoder.decodeGray(contentsOf: path).image
            } catch {
                failed = true
                printError("\(path): \(error)")
                continue
            }
            // Loaded at most once, on the first decode that asks for it, and outside the timing.
            var darkest: GrayImage??
            var times: [Double] = []
            var codes = 0
            for _ in 0..<runs {
                var loading = Duration.zero
                let start = clock.now
                codes = reader.read(gray) {
                    if darkest == nil {
                        let loadStart = clock.now
                        darkest = .some(try? decoder.decodeGray(contentsOf: path, conversion: .darkestChannel).image)
                        loading = clock.now - loadStart
                    }
                    return darkest ?? nil
                }.count
                times.append((clock.now - start - loading).inMilliseconds)
            }
            times.sort()
            print(JSONValue.object([
                "image": .string(path), "codes": .int(codes),
                "best_ms": JSONLine.milliseconds(times[0]), "median_ms": JSONLine.milliseconds(times[times.count / 2]),
            ]).text)
        }
        if failed { throw ExitCode(2) }
    }
}
