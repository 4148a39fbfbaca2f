import Foundation
#if canImport(Glibc)
import Glibc
#endif
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import QRCore
import QREncoder
import QRImage
import QRRender
@testable import QRServer

/// Runs `body` against the app through Hummingbird's in-process router client (no sockets).
func withApp<T: Sendable>(_ configuration: QRServerConfiguration = QRServerConfiguration(),
                          _ body: @Sendable (any TestClientProtocol) async throws -> T) async throws -> T {
    try await QRWebServer.application(configuration: configuration).test(.router, body)
}

/// A decoded API error body.
struct ErrorBody: Decodable {
    struct Detail: Decodable {
        let status: Int
        let code: String
        let message: String
    }
    let error: Detail
}

/// The decode response, as a client reads it.
struct DecodedBody: Decodable {
    struct Point: Decodable { let x: Double; let y: Double }
    struct Bounds: Decodable { let x: Double; let y: Double; let width: Double; let height: Double }
    struct Code: Decodable {
        let text: String
        let bytesBase64: String
        let corners: [Point]
        let bounds: Bounds
        let center: Point
        let symbology: String
        let version: Int
        let versionName: String
        let columns: Int
        let rows: Int
        let level: String
        let mask: Int
        let mirrored: Bool
        let inverted: Bool
        let charset: String?
    }
    let codes: [Code]
    let width: Int
    let height: Int
    let format: String
    let orientation: Int
    let timedOut: Bool
    let preview: String?
}

extension TestResponse {
    var bytes: [UInt8] { Array(body.readableBytesView) }
    var text: String { String(decoding: bytes, as: UTF8.self) }

    func json<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder().decode(type, from: Data(bytes))
    }

    /// The error body, checking that it is the API's JSON error with this status.
    func apiError() throws -> ErrorBody.Detail {
        let detail = try json(ErrorBody.self).error
        guard detail.status == Int(status.code), headers[.contentType]?.hasPrefix("application/json") == true else {
            throw TestFailure("\(status.code) with \(headers[.contentType] ?? "no content type"): \(text)")
        }
        return detail
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Test images, drawn with the library's own renderer.
enum TestImages {
    /// A PNG of `text` encoded with default options, black on white.
    static func png(_ text: String, moduleSize: Int = 4) throws -> [UInt8] {
        try RasterRenderer.png(for: QRCode.encode(text), style: RenderStyle(sizing: .moduleSize(moduleSize)))
    }

    /// Two codes side by side on a white 600 × 300 canvas, left at x 20…, right at x 320….
    static func twoCodes(_ left: String, _ right: String) throws -> (png: [UInt8], image: RGBAImage) {
        var canvas = try RGBAImage(width: 600, height: 300, color: RGBAPixel(red: 255, green: 255, blue: 255, alpha: 255))
        let style = RenderStyle(sizing: .moduleSize(6), quietZone: 2)
        canvas.draw(try RasterRenderer.image(for: QRCode.encode(left), style: style), x: 20, y: 40)
        canvas.draw(try RasterRenderer.image(for: QRCode.encode(right), style: style), x: 320, y: 40)
        return (try PNGEncoder.encode(canvas), canvas)
    }

    /// A JPEG of a code, stored rotated so that Exif orientation 6 ("rotate 90° clockwise to display")
    /// shows it upright.
    static func jpegWithOrientation6(_ text: String) throws -> (jpeg: [UInt8], displayed: GrayImage) {
        let upright = GrayImage(try RasterRenderer.image(for: QRCode.encode(text), style: RenderStyle(sizing: .moduleSize(5))))
        // Stored = the displayed image turned 90° counter-clockwise.
        var stored = try GrayImage(width: upright.height, height: upright.width)
        for y in 0..<upright.height {
            for x in 0..<upright.width { stored[y, upright.width - 1 - x] = upright[x, y] }
        }
        let plain = try JPEGEncoder.encode(stored, quality: 95)
        return (insertExifOrientation(6, into: plain), upright)
    }

    /// `jpeg` with an APP1 Exif segment holding only an orientation tag, right after SOI.
    static func insertExifOrientation(_ orientation: UInt16, into jpeg: [UInt8]) -> [UInt8] {
        var tiff: [UInt8] = Array("MM".utf8) + [0, 42, 0, 0, 0, 8]  // big-endian TIFF header, IFD at 8
        tiff += [0, 1]  // one entry
        tiff += [0x01, 0x12, 0, 3, 0, 0, 0, 1, UInt8(orientation >> 8), UInt8(orientation & 0xFF), 0, 0]
        tiff += [0, 0, 0, 0]  // no next IFD
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        let segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        return Array(jpeg.prefix(2)) + segment + Array(jpeg.dropFirst(2))
    }
}

/// A `multipart/form-data` body.
struct MultipartBody {
    let boundary: String
    private(set) var bytes: [UInt8] = []

    init(boundary: String = "qrkit-test-boundary-7MA4YWxkTrZu0gW") { self.boundary = boundary }

    mutating func field(_ name: String, _ value: String) {
        bytes += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
    }

    mutating func file(_ name: String, filename: String, type: String, _ content: [UInt8]) {
        bytes += Array(("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"; filename=\"\(filename)\"\r\n"
            + "Content-Type: \(type)\r\n\r\n").utf8)
        bytes += content
        bytes += Array("\r\n".utf8)
    }

    var finished: [UInt8] { bytes + Array("--\(boundary)--\r\n".utf8) }
    var contentType: String { "multipart/form-data; boundary=\(boundary)" }
}

extension HTTPFields {
    static func contentType(_ value: String) -> HTTPFields { [.contentType: value] }
}

extension ByteBuffer {
    init(_ bytes: [UInt8]) { self.init(bytes: bytes) }
}

/// A bare TCP connection to a live test server, for requests no HTTP client sends: a body announced and
/// then withheld.
final class RawConnection {
    private let socket: Int32

    init(port: Int) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw TestFailure("socket() failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(socket)
            throw TestFailure("connect() to port \(port) failed")
        }
    }

    deinit { close(socket) }

    func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    func send(_ bytes: [UInt8]) throws {
        guard bytes.withUnsafeBytes({ Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == bytes.count else {
            throw TestFailure("send() failed")
        }
    }

    /// What the server sends until the text received contains `end`, the server closes the connection, or
    /// `seconds` pass without a byte.
    func receive(until end: String, waitingAtMost seconds: Int) -> String {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while !String(decoding: received, as: UTF8.self).contains(end) {
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            received += chunk[..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }
}
