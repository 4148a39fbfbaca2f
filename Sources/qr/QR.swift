import ArgumentParser

/// The `qr` command: make, read, mark and pick QR codes, watch a video stream, serve the web app.
@main
struct QR: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "qr",
        abstract: "Make and read QR codes.",
        discussion: """
            Examples:
              qr make "https://example.com" -o code.png
              qr read photo.jpg
              qr read --json *.jpg
            """,
        subcommands: [MakeCommand.self, ReadCommand.self, MarkCommand.self, PickCommand.self, WatchCommand.self,
                      ServeCommand.self, BenchCommand.self])
}
