import Foundation
import Synchronization

/// Writes a line to standard error.
func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// Whether a file descriptor is a terminal.
func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) != 0 }

/// A progress bar on standard error for long batches, only when standard error is a terminal.
final class ProgressBar: Sendable {
    private let total: Int
    private let done = Mutex(0)

    private init(total: Int) { self.total = total }

    /// A bar for `total` items, or nil when it would not help (few items, or not a terminal).
    static func forTerminal(total: Int) -> ProgressBar? {
        total > 1 && isTerminal(STDERR_FILENO) ? ProgressBar(total: total) : nil
    }

    func advance() {
        let count = done.withLock { value -> Int in
            value += 1
            return value
        }
        let width = 30
        let filled = total > 0 ? width * count / total : width
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        FileHandle.standardError.write(Data("\r\(bar) \(count)/\(total)".utf8))
    }

    func finish() {
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
