import ArgumentParser
import QRServer

/// `qr serve`: the generator and scanner pages and the JSON API over HTTP.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the web app: generator, scanner (camera, upload, several codes) and a JSON API.",
        discussion: """
            Open http://localhost:8080 for the generator and http://localhost:8080/scanner for the scanner. \
            The API is described at /openapi.yaml. The server listens on the loopback address only unless \
            --host says otherwise; stop it with Ctrl-C.

            Examples:
              qr serve
              qr serve --port 9000 --max-body 50 --decode-timeout 10
              qr serve --host 0.0.0.0        # reachable from other machines: mind what you expose
            """)

    @Option(name: .long, help: "Address to listen on.")
    var host: String = "127.0.0.1"

    @Option(name: .long, help: "Port to listen on (0 picks a free one).")
    var port: Int = 8080

    @Option(name: .long, help: "Largest request body, in MiB.")
    var maxBody: Int = 20

    @Option(name: .long, help: "Largest image accepted, in pixels (width × height).")
    var maxPixels: Int = 50_000_000

    @Option(name: .long, help: "Seconds one decode may search for codes.")
    var decodeTimeout: Double = 5

    @Option(name: .long, help: "Images decoded or rendered at once (default: the number of cores).")
    var maxConcurrentDecodes: Int?

    @Option(name: .long, help: "Seconds a request body may take to arrive (a connection silent 5 s longer is closed).")
    var bodyTimeout: Double = 30

    func validate() throws {
        if !(0...65535).contains(port) { throw ValidationError("--port must be 0…65535.") }
        if !(1...1024).contains(maxBody) { throw ValidationError("--max-body must be 1…1024 (MiB).") }
        if maxPixels < 1 { throw ValidationError("--max-pixels must be at least 1.") }
        if !(decodeTimeout > 0 && decodeTimeout <= 600) { throw ValidationError("--decode-timeout must be above 0 and at most 600 seconds.") }
        if !(bodyTimeout >= 1 && bodyTimeout <= 3600) { throw ValidationError("--body-timeout must be 1…3600 seconds.") }
        if let maxConcurrentDecodes, maxConcurrentDecodes < 1 { throw ValidationError("--max-concurrent-decodes must be at least 1.") }
    }

    func run() async throws {
        var configuration = QRServerConfiguration(host: host, port: port, maxBodyBytes: maxBody << 20, maxPixels: maxPixels,
                                                  decodeTimeBudget: .milliseconds(Int((decodeTimeout * 1000).rounded())),
                                                  bodyTimeout: .milliseconds(Int((bodyTimeout * 1000).rounded())))
        if let maxConcurrentDecodes { configuration.maxConcurrentJobs = maxConcurrentDecodes }
        do {
            try await QRWebServer.run(configuration: configuration) { address in
                printError("Serving the QR web app on \(address) (Ctrl-C to stop)")
            }
        } catch let error as QRWebServer.StartError {
            printError("Error: \(error)")
            throw ExitCode.failure
        }
    }
}
