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

    static func main() async {
        // Before the first suspension, while this is the only thread: see LargeImageMemory.
        if LargeImageMemory.wantsReusedBuffers(CommandLine.arguments) { LargeImageMemory.reuseBuffers() }
        await main(nil)
    }
}
