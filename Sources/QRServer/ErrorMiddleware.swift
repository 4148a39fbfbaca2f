internal import HTTPTypes
internal import Hummingbird

/// Turns every error a route or the router throws into a JSON error response, so clients always get
/// `{"error": {…}}` with a meaningful status, never Hummingbird's empty 500.
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    /// `Allow` values by path: the router answers 404 for a known path with another method, which
    /// becomes 405 here.
    let allowedMethods: [String: String]

    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            return error.response()
        } catch let error as HTTPError {
            if error.status == .notFound, let allowed = allowedMethods[request.uri.path] {
                var refusal = APIError(status: .methodNotAllowed, code: "method_not_allowed",
                                       message: "\(request.uri.path) accepts \(allowed), not \(request.method.rawValue).")
                refusal.headers = [HTTPField(name: .allow, value: allowed)]
                return refusal.response()
            }
            return Self.apiError(for: error.status, message: error.body).response()
        } catch {
            context.logger.error("Unexpected error", metadata: ["error": "\(String(reflecting: error))"])
            return APIError(status: .internalServerError, code: "internal_error",
                            message: "The server failed to handle the request.").response()
        }
    }

    static func apiError(for status: HTTPResponse.Status, message: String?) -> APIError {
        switch status {
        case .notFound:
            return APIError(status: status, code: "not_found", message: message ?? "There is nothing at this address.")
        default:
            return APIError(status: status, code: "http_\(status.code)", message: message ?? status.reasonPhrase)
        }
    }
}
