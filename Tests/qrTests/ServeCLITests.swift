import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// `qr serve` from the built binary: it finds its pages, answers on the port it reports, and stops on SIGINT.
@Suite("qr serve")
struct ServeCLITests {
    @Test func servesThePagesAndStopsOnInterrupt() async throws {
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = ["serve", "--port", "0"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        // The address line names the port actually bound.
        var output = ""
        let deadline = ContinuousClock.now + .seconds(30)
        while !output.contains("(Ctrl-C to stop)"), ContinuousClock.now < deadline, process.isRunning {
            let chunk = errors.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            output += String(decoding: chunk, as: UTF8.self)
        }
        let line = try #require(output.split(separator: "\n").first { $0.contains("Serving the QR web app on ") })
        let address = try #require(line.split(separator: " ").first { $0.hasPrefix("http://127.0.0.1:") })

        for (path, type) in [("/", "text/html"), ("/scanner", "text/html"), ("/openapi.yaml", "application/yaml"),
                             ("/healthz", "application/json")] {
            let url = try #require(URL(string: "\(address)\(path)"))
            let (_, response) = try await URLSession.shared.data(from: url)
            let http = try #require(response as? HTTPURLResponse)
            #expect(http.statusCode == 200, "\(path)")
            #expect((http.value(forHTTPHeaderField: "Content-Type") ?? "").hasPrefix(type), "\(path)")
            #expect(http.value(forHTTPHeaderField: "Content-Security-Policy")?.contains("script-src 'self'") == true)
        }

        process.interrupt()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    @Test func refusesBadOptions() throws {
        let result = try CLI.run(["serve", "--port", "70000"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--port must be 0…65535"))
    }
}
