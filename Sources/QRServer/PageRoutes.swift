internal import HTTPTypes
internal import Hummingbird
internal import NIOCore

/// The pages, their scripts and styles, and the OpenAPI document.
struct PageRoutes: Sendable {
    let assets: StaticAssets

    /// Page addresses and the files they serve.
    static let pages: [(path: String, file: String)] = [
        ("/", "index.html"), ("/scanner", "scanner.html"), ("/openapi.yaml", "openapi.yaml"),
    ]

    func add(to router: Router<some RequestContext>) {
        for page in Self.pages {
            let file = page.file
            router.get(RouterPath(page.path)) { request, _ in try self.serve(file, request: request) }
        }
        router.get("/assets/{name}") { request, context in
            let name = try context.parameters.require("name")
            return try self.serve("assets/" + name, request: request)
        }
    }

    /// The file, or 304 when the client's copy is current, or 404.
    func serve(_ path: String, request: Request) throws -> Response {
        // Router parameters never hold "/", and only listed files exist, so no path can leave the folder.
        guard let asset = assets[path] else { throw HTTPError(.notFound) }
        var headers = HTTPFields()
        headers[.eTag] = asset.etag
        headers[.cacheControl] = "no-cache"
        if let match = request.headers[.ifNoneMatch],
           match.split(separator: ",").contains(where: { $0.trimmingSpaces() == asset.etag || $0.trimmingSpaces() == "*" }) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = asset.contentType
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: asset.bytes)))
    }
}
