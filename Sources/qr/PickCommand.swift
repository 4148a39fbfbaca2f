import ArgumentParser
import Foundation
import QRKit

/// `qr pick`: the seed apps' rule — one code goes straight through, several are listed to choose from.
struct PickCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pick",
        abstract: "Print the one QR code you mean when a photo holds several.",
        discussion: """
            One code: its text is printed. Several: choose with --index N or --at X,Y (a point in the photo as \
            displayed, within --tolerance pixels of a code), or interactively from a numbered list when \
            standard input is a terminal. Without a terminal and without a choice the list goes to stderr.
            Exit status: 0 when a code was printed, 1 when none was found, 2 on errors, 3 when a choice \
            is needed or --at/--index matched nothing.

            Examples:
              qr pick breakfast-menu.jpg
              qr pick breakfast-menu.jpg --index 2
              qr pick breakfast-menu.jpg --at 812,430
              qr pick fax.tif --page 2
            """)

    @Argument(help: "The photo (PNG, JPEG, GIF, BMP, TIFF, PGM/PPM); - reads standard input.")
    var image: String

    @Option(name: .long, help: "Choose the Nth code of the list (1-based).")
    var index: Int?

    @Option(name: .long, help: "Choose the code at this pixel X,Y of the photo as displayed.")
    var at: PointArgument?

    @Option(name: .long, help: "How far outside a code a point still selects it, in pixels (default 10).")
    var tolerance: Double = HitTester.defaultTolerance

    @OptionGroup var pageOption: PageOption

    func validate() throws {
        if index != nil && at != nil { throw ValidationError("Choose with --index or --at, not both.") }
        if !(tolerance >= 0 && tolerance.isFinite) { throw ValidationError("--tolerance must be a number of pixels, 0 or more.") }
    }

    func run() throws {
        do {
            let scan = try PhotoScan(path: image, page: pageOption.page, options: ReaderOptions())
            switch Selection(scan.codes) {
            case .none:
                printError(scan.noCodeMessage(path: image))
                throw ExitCode(1)
            case let .single(code):
                print(Self.printable(code.text))
            case let .several(codes):
                print(Self.printable(try choose(from: codes, scan: scan).text))
            }
        } catch let failure as CommandFailure {
            printError(failure.message)
            throw ExitCode(failure.status)
        }
    }

    /// The text as is for pipes; with control characters escaped on a terminal.
    private static func printable(_ text: String) -> String {
        isTerminal(STDOUT_FILENO) ? TerminalText.safe(text) : text
    }

    private func choose(from codes: [ReadResult], scan: PhotoScan) throws -> ReadResult {
        if let index {
            guard codes.indices.contains(index - 1) else {
                throw CommandFailure(message: "There are \(codes.count) codes; --index must be 1…\(codes.count).\n\(scan.numberedList())", status: 3)
            }
            return codes[index - 1]
        }
        if let at {
            guard let hit = HitTester.hit(at.point, in: codes.map(\.corners), tolerance: tolerance) else {
                throw CommandFailure(message: "No code at \(at.text) (within \(tolerance) px).\n\(scan.numberedList())", status: 3)
            }
            return codes[hit]
        }
        guard isTerminal(STDIN_FILENO) else {
            throw CommandFailure(message: "\(codes.count) codes found; choose one with --index N or --at X,Y:\n\(scan.numberedList())", status: 3)
        }
        printError("\(codes.count) codes found:\n\(scan.numberedList())")
        while true {
            FileHandle.standardError.write(Data("Which one (1…\(codes.count))? ".utf8))
            guard let line = readLine() else { throw CommandFailure(message: "No choice made.", status: 3) }
            if let choice = Int(line.trimmingCharacters(in: .whitespaces)), codes.indices.contains(choice - 1) {
                return codes[choice - 1]
            }
        }
    }
}

/// `X,Y` in pixels.
struct PointArgument: ExpressibleByArgument {
    let point: Point
    /// The point as the user wrote it, for messages: any finite pair parses, however far outside the photo.
    let text: String
    init?(argument: String) {
        let parts = argument.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, parts.allSatisfy(\.isFinite) else { return nil }
        point = Point(parts[0], parts[1])
        text = argument
    }
}
