internal import HTTPTypes
internal import Hummingbird

/// Adds the security headers to every response, errors included.
///
/// Decoded QR content is attacker-controlled, so the pages never insert it as HTML; the policy below is the
/// second line of defence: no inline scripts or styles, no plug-ins, no framing, nothing loaded or sent
/// anywhere but this server.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        for field in SecurityHeaders.fields { response.headers[field.name] = field.value }
        return response
    }
}

/// The headers `SecurityHeadersMiddleware` sets.
enum SecurityHeaders {
    static let contentSecurityPolicy = [
        "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data: blob:",
        "media-src 'self' blob:", "connect-src 'self'", "object-src 'none'", "base-uri 'none'",
        "form-action 'self'", "frame-ancestors 'none'",
    ].joined(separator: "; ")

    static let fields: [HTTPField] = [
        HTTPField(name: .contentSecurityPolicy, value: contentSecurityPolicy),
        HTTPField(name: .xContentTypeOptions, value: "nosniff"),
        HTTPField(name: .referrerPolicy, value: "no-referrer"),
        // The scanner page may use the camera; nothing else may.
        HTTPField(name: .permissionsPolicy, value: "camera=(self), microphone=(), geolocation=()"),
        HTTPField(name: .crossOriginOpenerPolicy, value: "same-origin"),
    ]
}

extension HTTPField.Name {
    // Names swift-http-types does not predefine; the literals are valid field names.
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
    static let permissionsPolicy = HTTPField.Name("Permissions-Policy")!
    static let crossOriginOpenerPolicy = HTTPField.Name("Cross-Origin-Opener-Policy")!
}
