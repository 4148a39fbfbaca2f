import ArgumentParser
import Foundation
import QRKit

extension ReaderOptions.Accuracy: ExpressibleByArgument {}

/// A region `x,y,w,h`: fractions of the image when all four are at most 1, else pixels.
struct RegionArgument: ExpressibleByArgument {
    let region: ReaderOptions.RegionOfInterest

    init?(argument: String) {
        let parts = argument.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 4, parts[2] > 0, parts[3] > 0, parts.allSatisfy({ $0 >= 0 }) else { return nil }
        let rect = Rect(x: parts[0], y: parts[1], width: parts[2], height: parts[3])
        region = parts.allSatisfy { $0 <= 1 } ? .normalized(rect) : .pixels(rect)
    }
}

/// `--time-budget MS` of the reading commands: milliseconds, positive and at most 10⁹.
enum TimeBudgetOption {
    /// Throws the option's usage error unless `milliseconds` is nil or in range.
    static func validate(_ milliseconds: Double?) throws {
        if let milliseconds, !(milliseconds > 0 && milliseconds <= 1e9) {
            throw ValidationError("--time-budget must be a positive number of milliseconds.")
        }
    }

    /// The budget as the reader takes it (nil: no limit).
    static func duration(_ milliseconds: Double?) -> Duration? {
        milliseconds.map { .nanoseconds(Int64($0 * 1_000_000)) }
    }
}

/// `--page N` of `qr mark` and `qr pick`: the page of a multi-page TIFF to read, from 1.
struct PageOption: ParsableArguments {
    @Option(name: .long, help: "The page of a multi-page TIFF to read, from 1.")
    var page: Int = 1

    func validate() throws {
        if page < 1 { throw ValidationError("--page must be at least 1 (pages are numbered from 1).") }
    }
}

/// `--level L|M|Q|H`.
struct LevelArgument: ExpressibleByArgument {
    let level: ErrorCorrectionLevel
    init?(argument: String) {
        guard let level = ErrorCorrectionLevel(argument) else { return nil }
        self.level = level
    }
}

/// `--version N` or `--version MIN-MAX`.
struct VersionRangeArgument: ExpressibleByArgument {
    let range: ClosedRange<Int>
    init?(argument: String) {
        let parts = argument.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        switch parts.count {
        case 1: guard let v = parts[0] else { return nil }; range = v...v
        case 2: guard let a = parts[0], let b = parts[1], a <= b else { return nil }; range = a...b
        default: return nil
        }
        // Out of 1…40 is a usage error like any other malformed value.
        guard (1...40).contains(range.lowerBound), (1...40).contains(range.upperBound) else { return nil }
    }
}

/// `--split N` (2…16) or `--split auto`.
struct SplitArgument: ExpressibleByArgument {
    let count: Int?
    init?(argument: String) {
        if argument == "auto" { count = nil; return }
        guard let n = Int(argument) else { return nil }
        count = n
    }
}

/// Output formats of `qr make`.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case png, svg, terminal, text, matrix, json

    init?(fileExtension: String) {
        switch fileExtension.lowercased() {
        case "png": self = .png
        case "svg": self = .svg
        case "txt": self = .text
        case "json": self = .json
        default: return nil
        }
    }
}
