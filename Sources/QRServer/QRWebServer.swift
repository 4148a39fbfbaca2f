#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
internal import HTTPTypes
internal import Hummingbird
internal import HummingbirdCore
internal import NIOCore

/// The web app and JSON API of `qr serve`: the generator page at `/`, the scanner page at `/scanner`,
/// `GET|POST /api/encode`, `POST /api/decode`, `GET /healthz` and the API description at `/openapi.yaml`.
///
/// ```swift
/// try await QRWebServer.run(configuration: QRServerConfiguration(port: 8080)) { print("Listening on \($0)") }
/// ```
///
/// Hummingbird stays an implementation detail (imported `internal`), so clients of this module do not see
/// its types or extensions.
public enum QRWebServer {
    /// Why the server cannot start, with a message for the user.
    public struct StartError: Error, CustomStringConvertible {
        public let description: String
    }

    /// The methods each fixed address takes, for 405 answers (with `Allow`) to the others.
    static let allowedMethods: [String: String] = [
        "/api/decode": "POST", "/api/encode": "GET, HEAD, POST", "/healthz": "GET, HEAD",
        "/": "GET, HEAD", "/scanner": "GET, HEAD", "/openapi.yaml": "GET, HEAD",
    ]

    /// The router with every route and the middleware around them.
    static func router(configuration: QRServerConfiguration) throws(StartError) -> Router<BasicRequestContext> {
        guard configuration.problems.isEmpty else {
            throw StartError(description: configuration.problems.joined(separator: " "))
        }
        let assets: StaticAssets
        do {
            assets = try StaticAssets.load()
        } catch {
            throw StartError(description: error.description)
        }
        let limiter = WorkLimiter(running: configuration.maxConcurrentJobs, queued: configuration.maxQueuedJobs,
                                  timeout: configuration.queueTimeout)
        let router = Router(context: BasicRequestContext.self, options: [.autoGenerateHeadEndpoints])
        // Outermost first: every response, errors included, gets the security headers.
        router.add(middleware: SecurityHeadersMiddleware())
        router.add(middleware: ErrorMiddleware(allowedMethods: allowedMethods))

        let decode = DecodeRoute(configuration: configuration, limiter: limiter)
        let encode = EncodeRoute(configuration: configuration, limiter: limiter)
        let health = HealthRoute(limiter: limiter)
        router.post("/api/decode") { request, context in try await decode.handle(request, context: context) }
        router.get("/api/encode") { request, context in try await encode.handle(request, context: context) }
        router.post("/api/encode") { request, context in try await encode.handle(request, context: context) }
        router.get("/healthz") { _, _ in try health.handle() }
        PageRoutes(assets: assets).add(to: router)
        return router
    }

    /// The application, bound to `configuration.host` and `configuration.port`; `onListening` gets the
    /// address it listens on (with the port actually bound when `port` is 0).
    static func application(configuration: QRServerConfiguration,
                            onListening: @escaping @Sendable (String) -> Void = { _ in })
        throws(StartError) -> Application<RouterResponder<BasicRequestContext>> {
        // A connection silent for 5 s longer than the body timeout (so that a body late by then is answered
        // 408 first, even on a busy machine) is closed: one that sends a request head slowly holds no
        // admission slot, yet holds a socket.
        let timeout = configuration.bodyTimeout.components
        let silence = TimeAmount.nanoseconds((min(timeout.seconds, 1 << 32) + 5) * 1_000_000_000 + timeout.attoseconds / 1_000_000_000)
        return Application(router: try router(configuration: configuration),
                           server: .http1(configuration: HTTP1Channel.Configuration(idleTimeout: silence)),
                           configuration: ApplicationConfiguration(address: .hostname(configuration.host, port: configuration.port),
                                                                   serverName: nil),
                           onServerRunning: { channel in
                               let port = channel.localAddress?.port ?? configuration.port
                               let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
                               onListening("http://\(host):\(port)")
                           })
    }

    /// Serves until SIGINT or SIGTERM, then shuts down gracefully.
    public static func run(configuration: QRServerConfiguration,
                           onListening: @escaping @Sendable (String) -> Void = { _ in }) async throws {
        let app = try application(configuration: configuration, onListening: onListening)
        do {
            try await app.runService()
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            throw StartError(description: "Port \(configuration.port) on \(configuration.host) is already in use: "
                + "stop the other server or choose another --port.")
        } catch let error as IOError where error.errnoCode == EADDRNOTAVAIL || error.errnoCode == EACCES {
            throw StartError(description: "Cannot listen on \(configuration.host):\(configuration.port): \(error).")
        }
    }
}
