import ArgumentParser
import Foundation
import QRKit

/// `qr read`: decode every code in images.
struct ReadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "read",
        abstract: "Print the content of every QR code in images.",
        discussion: """
            Every page of a multi-page TIFF (a scan or a fax) is read, one after the other; each code found on \
            one is printed as "FILE, page N: text", and its JSON line has "page": N (from 1), as do the lines of \
            its pages without codes or that could not be decoded. decode_ms is a page's time.
            Exit status: 0 when a code was found (on any page), 1 when none was, 2 on errors (a page that cannot \
            be decoded is one).

            Examples:
              qr read photo.jpg
              qr read --json a.png b.jpg
              qr read fax.tif                               # every page
              qr read --list files.txt --json --jobs 2
              qr read --accuracy fast --list photos.txt     # search many photos
              qr read --time-budget 500 upload.png
              cat photo.jpg | qr read -
            """)

    @Argument(help: "Image files (PNG, JPEG, GIF, BMP, TIFF, PGM/PPM); - reads standard input.")
    var images: [String] = []

    @Option(name: .long, help: "A file listing image paths, one per line; - reads the list from standard input.")
    var list: String?

    @Flag(name: .long, help: "Print JSON Lines: one object per code, with corners, version, level and timing.")
    var json = false

    @Option(name: .long, help: ArgumentHelp("fast or thorough (default).", discussion: """
        fast thresholds the picture and its shrunk copies one way (and its negative when nothing is found), and \
        gives up on a picture without a code in about a third of the time: the one to search many photos with.
        """))
    var accuracy: ReaderOptions.Accuracy = .thorough

    @Option(name: .long, help: "Search only this region: x,y,w,h as fractions (0…1) or pixels.")
    var roi: RegionArgument?

    @Option(name: .long, help: "Stop after this many codes per image.")
    var max: Int?

    @Flag(name: .long, help: "Do not look for light-on-dark codes.")
    var noInverted = false

    @Flag(name: .long, help: "Look for light-on-dark codes even beside dark-on-light ones found (a third to a half slower).")
    var mixedPolarity = false

    @Flag(name: .long, help: "Do not also read shrunk copies of large images (faster; may miss noisy, blurred or very large codes).")
    var noDownscale = false

    @Option(name: .long, help: ArgumentHelp("Most milliseconds to spend searching one image (default: no limit).",
                                            discussion: "What is found by then is printed. An image whose search the budget cut short is named on standard error, and its JSON lines say \"timed_out\": true."))
    var timeBudget: Double?

    @Option(name: .long, help: "Decode this many images at once.")
    var jobs: Int = 1

    func validate() throws {
        if images.isEmpty && list == nil { throw ValidationError("Give image files, - for standard input, or --list FILE.") }
        if jobs < 1 { throw ValidationError("--jobs must be at least 1.") }
        try ImageList.validate(images, list: list)
        if let max, max < 1 { throw ValidationError("--max must be at least 1.") }
        if mixedPolarity && noInverted { throw ValidationError("--mixed-polarity looks for light-on-dark codes, which --no-inverted leaves out.") }
        try TimeBudgetOption.validate(timeBudget)
    }

    func run() throws {
        let paths = try ImageList.paths(images, list: list)
        let options = ReaderOptions(accuracy: accuracy, regionOfInterest: roi?.region, maximumCodes: max,
                                    tryInverted: !noInverted, mixedPolarity: mixedPolarity, tryDownscale: !noDownscale,
                                    timeBudget: TimeBudgetOption.duration(timeBudget))
        let outcomes = ImageScanner(options: options).scan(paths, jobs: jobs, progress: ProgressBar.forTerminal(total: paths.count))
        var found = false, failed = false
        for outcome in outcomes {
            let printed = printOutcome(outcome, named: paths.count > 1)
            found = found || printed.found
            failed = failed || printed.failed
        }
        if failed { throw ExitCode(2) }
        if !found { throw ExitCode(1) }
    }

    /// Prints one file's pages: their codes, or why a page could not be read. The pages of a multi-page TIFF are
    /// numbered from 1 in every line about them; other files' are not. Text lines start with the file's name
    /// when `named` (several files) or when it has several pages. (A method of its own: inlined into `run()`,
    /// the loop over pages crashed Swift 6.3.1's optimizer, in CopyPropagation.)
    private func printOutcome(_ outcome: ImageScanner.Outcome, named: Bool) -> (found: Bool, failed: Bool) {
        let multiPage = outcome.pages.count > 1
        var found = false, failed = false
        for (index, result) in outcome.pages.enumerated() {
            let page = multiPage ? index + 1 : nil
            switch result {
            case let .failure(error):
                failed = true
                printFailure(error, path: outcome.path, page: page)
            case let .success(scan):
                found = found || !scan.codes.isEmpty
                printScan(scan, path: outcome.path, page: page, named: named || multiPage)
            }
        }
        return (found, failed)
    }

    /// How messages and text lines name an image: its path, and its page in a multi-page file.
    private func name(_ path: String, page: Int?) -> String {
        page.map { "\(path), page \($0)" } ?? path
    }

    private func printFailure(_ error: ImageError, path: String, page: Int?) {
        printError("\(name(path, page: page)): \(error)")
        if json { print(JSONLine.error(image: path, page: page, message: "\(error)")) }
    }

    /// The codes of one image (or page); text lines start with its name when `named` (several files or pages).
    private func printScan(_ scan: ImageScanner.Scan, path: String, page: Int?, named: Bool) {
        if scan.timedOut {
            printError("\(name(path, page: page)): the time budget ran out before the search was finished; a code may have been missed")
        }
        if json {
            if scan.codes.isEmpty { print(JSONLine.empty(image: path, page: page, scan: scan)) }
            for code in scan.codes { print(JSONLine.code(code, scan: scan, image: path, page: page)) }
        } else {
            // Payloads are data: on a terminal, control characters are shown escaped.
            let terminal = isTerminal(STDOUT_FILENO)
            for code in scan.codes {
                let text = terminal ? TerminalText.safe(code.text) : code.text
                print(named ? "\(name(path, page: page)): \(text)" : text)
            }
        }
    }
}
