import ArgumentParser

/// `qr bench`: speed measurements (the peers are measured by the scripts in Benchmarks/).
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure encoding and decoding speed.",
        subcommands: [BenchMakeCommand.self, BenchReadCommand.self, BenchWatchCommand.self])
}
