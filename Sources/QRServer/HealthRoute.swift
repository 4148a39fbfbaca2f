internal import Hummingbird

/// `GET /healthz`: the server answers, with the image jobs in progress.
struct HealthRoute: Sendable {
    let limiter: WorkLimiter

    struct Health: Encodable {
        let status: String
        /// Requests admitted for image work (reading their body, waiting, or running).
        let admitted: Int
        /// Image jobs running now.
        let running: Int
    }

    func handle() throws -> Response {
        let load = limiter.load
        return try JSONCoding.response(Health(status: "ok", admitted: load.admitted, running: load.running))
    }
}
