import Foundation

/// Where `qr serve` listens and the limits it puts on untrusted requests.
public struct QRServerConfiguration: Sendable, Equatable {
    /// Address to bind; loopback by default so that nothing outside the machine can reach the server.
    public var host: String
    /// TCP port (0 picks a free one).
    public var port: Int
    /// Largest request body accepted, in bytes; larger ones get 413 before they are read to the end.
    public var maxBodyBytes: Int
    /// Largest image accepted, in pixels (width × height), checked from the image header before decoding.
    public var maxPixels: Int
    /// How long one decode may search for codes before the reader stops starting new work.
    public var decodeTimeBudget: Duration
    /// Image jobs (decoding uploads, rendering codes) that run at once.
    public var maxConcurrentJobs: Int
    /// Requests that may wait for a job slot; more are answered 503 at once.
    public var maxQueuedJobs: Int
    /// How long a request waits for a job slot before it is answered 503.
    public var queueTimeout: Duration
    /// How long a request body may take to arrive whole before it is answered 408; a connection silent 5 s
    /// longer than this, between requests or inside one, is closed.
    public var bodyTimeout: Duration

    /// Loopback port 8080, 20 MiB bodies, 50 megapixels, 5 s per decode, one job per core, 16 waiting for
    /// at most 10 s, bodies in within 30 s.
    public init(host: String = "127.0.0.1", port: Int = 8080, maxBodyBytes: Int = 20 << 20,
                maxPixels: Int = 50_000_000, decodeTimeBudget: Duration = .seconds(5),
                maxConcurrentJobs: Int = ProcessInfo.processInfo.activeProcessorCount,
                maxQueuedJobs: Int = 16, queueTimeout: Duration = .seconds(10), bodyTimeout: Duration = .seconds(30)) {
        self.host = host
        self.port = port
        self.maxBodyBytes = maxBodyBytes
        self.maxPixels = maxPixels
        self.decodeTimeBudget = decodeTimeBudget
        self.maxConcurrentJobs = maxConcurrentJobs
        self.maxQueuedJobs = maxQueuedJobs
        self.queueTimeout = queueTimeout
        self.bodyTimeout = bodyTimeout
    }

    /// Problems that keep the server from starting, as messages for the user.
    public var problems: [String] {
        var problems: [String] = []
        if !(0...65535).contains(port) { problems.append("The port must be 0…65535, not \(port).") }
        if maxBodyBytes < 1 { problems.append("The body limit must be at least 1 byte.") }
        if maxPixels < 1 { problems.append("The pixel limit must be at least 1 pixel.") }
        if decodeTimeBudget <= .zero { problems.append("The decode time budget must be positive.") }
        if maxConcurrentJobs < 1 { problems.append("At least one image job must be allowed to run at once.") }
        if maxQueuedJobs < 0 { problems.append("The number of waiting jobs cannot be negative.") }
        if queueTimeout < .zero { problems.append("The queue timeout cannot be negative.") }
        if bodyTimeout <= .zero { problems.append("The body timeout must be positive.") }
        return problems
    }
}
