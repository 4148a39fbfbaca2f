import Foundation

/// The web app's files (pages, scripts, styles, the OpenAPI document), read once from the module's
/// resources and served from memory.
struct StaticAssets: Sendable {
    struct Asset: Sendable, Equatable {
        let bytes: [UInt8]
        let contentType: String
        /// A strong validator for conditional requests: the files only change with the binary.
        let etag: String
    }

    /// Files by path relative to `Public/`, such as `index.html` or `assets/app.css`.
    let files: [String: Asset]

    /// Why the assets could not be loaded (the resource bundle missing beside the binary).
    struct LoadError: Error, CustomStringConvertible {
        let description: String
    }

    subscript(path: String) -> Asset? { files[path] }

    /// Every file under the bundle's `Public` folder.
    static func load() throws(LoadError) -> StaticAssets {
        guard let root = Bundle.module.resourceURL?.appendingPathComponent("Public", isDirectory: true) else {
            throw LoadError(description: "The web app's resources are missing: keep the QRKit_QRServer resource bundle beside the qr binary.")
        }
        return try load(from: root)
    }

    static func load(from root: URL) throws(LoadError) -> StaticAssets {
        let manager = FileManager.default
        guard let enumerator = manager.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) else {
            throw LoadError(description: "Cannot list the web app's resources in \(root.path).")
        }
        var files: [String: Asset] = [:]
        let prefix = root.standardizedFileURL.path + "/"
        for case let url as URL in enumerator {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true,
                  let contentType = contentType(forExtension: url.pathExtension) else { continue }
            guard let data = try? Data(contentsOf: url) else {
                throw LoadError(description: "Cannot read the web app's file \(url.path).")
            }
            let path = String(url.standardizedFileURL.path.dropFirst(prefix.count))
            let bytes = [UInt8](data)
            files[path] = Asset(bytes: bytes, contentType: contentType, etag: "\"\(fnv1a(bytes))\"")
        }
        guard files["index.html"] != nil else {
            throw LoadError(description: "The web app's resources in \(root.path) have no index.html.")
        }
        return StaticAssets(files: files)
    }

    /// Only these kinds of file are served; anything else in the folder stays private.
    static func contentType(forExtension ext: String) -> String? {
        switch ext.lowercased() {
        case "html": "text/html; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "yaml": "application/yaml; charset=utf-8"
        default: nil
        }
    }

    /// 64-bit FNV-1a as hex: a cheap content hash for the ETag.
    private static func fnv1a(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}
