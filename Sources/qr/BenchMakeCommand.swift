import ArgumentParser
import Foundation
import QRKit

/// `qr bench make`: codes per second for a short URL at level M and a full version-40-H symbol, the
/// cases `Benchmarks/encode-vs-qrencode.sh` also gives libqrencode.
struct BenchMakeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "make",
        abstract: "Codes per second for a short URL at M and for a full version 40-H symbol (matrix only, one thread).")

    /// The two cases, as `--only` and `--print-payload` name them.
    enum Case: String, CaseIterable, ExpressibleByArgument {
        case url, full
    }

    @Option(name: .long, help: "Seconds per case (above 0, at most 600).")
    var seconds: Double = 3

    @Option(name: .long, help: "Print a case's payload (url or full) and exit; for the comparison script.")
    var printPayload: Case?

    @Option(name: .long, help: "Run only this case: url or full.")
    var only: Case?

    static let url = "https://example.com/qrkit?id=12345"
    /// 1273 bytes: exactly what version 40-H holds in byte mode (lower-case text, so byte mode).
    static let full: String = {
        // Typed out: with the server's modules loaded into `qr`, the inferred form is too complex to type-check.
        let alphabet: [Character] = Array("abcdefghijklmnopqrstuvwxyz.,-")
        return String((0..<1273).map { (i: Int) -> Character in alphabet[(i * 7 + i / 29) % 29] })
    }()

    func validate() throws {
        if !(seconds > 0 && seconds <= 600) { throw ValidationError("--seconds must be above 0 and at most 600.") }
    }

    func run() throws {
        if let printPayload {
            print(printPayload == .url ? Self.url : Self.full)
            return
        }
        let cases: [(Case, String, String, ErrorCorrectionLevel)] = [(.url, "short-url-M", Self.url, .medium),
                                                                    (.full, "full-40-H", Self.full, .high)]
        for (key, name, text, level) in cases where only == nil || only == key {
            let options = EncodingOptions(errorCorrectionLevel: level)
            var version = 0
            let clock = ContinuousClock()
            var count = 0
            let start = clock.now
            while clock.now - start < .milliseconds(Int((seconds * 1000).rounded(.up))) {
                for _ in 0..<16 {
                    version = try QRCode.encode(text, options: options).version.number
                    count += 1
                }
            }
            let secondsElapsed = (clock.now - start).inSeconds
            print("qr \(name) version=\(version) codes_per_second=\(String(format: "%.1f", Double(count) / secondsElapsed))")
        }
    }
}
