import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import QRImage
import Testing
@testable import QRServer

/// Every client mistake is a 4xx JSON error with a clear message: never a 500, never a crash.
@Suite("Web API errors")
struct APIErrorTests {
    private func decode(_ client: some TestClientProtocol, query: String = "", headers: HTTPFields = .contentType("image/png"),
                        body: [UInt8]?) async throws -> TestResponse {
        try await client.execute(uri: "/api/decode\(query)", method: .post, headers: headers, body: body.map(ByteBuffer.init))
    }

    @Test func emptyBodies() async throws {
        try await withApp { client in
            for headers: HTTPFields in [.contentType("image/png"), [:], .contentType("application/octet-stream")] {
                let response = try await decode(client, headers: headers, body: nil)
                #expect(response.status == .badRequest)
                let error = try response.apiError()
                #expect(error.code == "empty_body")
                #expect(error.message.contains("empty"))
            }
            var form = MultipartBody()
            form.file("image", filename: "empty.png", type: "image/png", [])
            let emptyPart = try await decode(client, headers: .contentType(form.contentType), body: form.finished)
            #expect(emptyPart.status == .badRequest)
            #expect(try emptyPart.apiError().code == "empty_body")

            let emptyJSON = try await client.execute(uri: "/api/encode", method: .post, headers: .contentType("application/json"))
            #expect(emptyJSON.status == .badRequest)
            #expect(try emptyJSON.apiError().code == "empty_body")
        }
    }

    @Test func wrongContentTypes() async throws {
        let png = try TestImages.png("typed")
        try await withApp { client in
            for type in ["text/plain", "application/json", "application/x-www-form-urlencoded", "video/mp4"] {
                let response = try await decode(client, headers: .contentType(type), body: png)
                #expect(response.status == .unsupportedMediaType, "\(type)")
                let error = try response.apiError()
                #expect(error.code == "unsupported_media_type")
                #expect(error.message.contains(type))
            }
            let malformed = try await decode(client, headers: .contentType("image"), body: png)
            #expect(malformed.status == .badRequest)
            #expect(try malformed.apiError().code == "invalid_content_type")

            let encode = try await client.execute(uri: "/api/encode", method: .post, headers: .contentType("text/plain"),
                                                  body: ByteBuffer(Array("text=x".utf8)))
            #expect(encode.status == .unsupportedMediaType)
            let untypedBody = try await client.execute(uri: "/api/encode?text=x", method: .post, body: ByteBuffer(Array("x".utf8)))
            #expect(untypedBody.status == .unsupportedMediaType)
        }
    }

    @Test func malformedMultipart() async throws {
        let png = try TestImages.png("form")
        var good = MultipartBody()
        good.file("image", filename: "a.png", type: "image/png", png)
        let boundary = good.boundary
        let cases: [(String, String, [UInt8])] = [
            ("no boundary parameter", "multipart/form-data", good.finished),
            ("invalid boundary", "multipart/form-data; boundary=\"bad\\u{1}\"", good.finished),
            ("body without the boundary", "multipart/form-data; boundary=other", good.finished),
            ("not closed", good.contentType, Array(good.finished.dropLast(boundary.count + 8))),
            ("no blank line after headers", good.contentType,
             Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"image\"\r\n--\(boundary)--\r\n".utf8)),
            ("no disposition", good.contentType,
             Array("--\(boundary)\r\nContent-Type: image/png\r\n\r\nxx\r\n--\(boundary)--\r\n".utf8)),
            ("garbage", good.contentType, Array("this is not a form at all".utf8)),
            ("no image part", good.contentType,
             Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"text\"\r\n\r\nhello\r\n--\(boundary)--\r\n".utf8)),
        ]
        try await withApp { client in
            for (name, type, body) in cases {
                let response = try await decode(client, headers: .contentType(type), body: body)
                #expect(response.status == .badRequest, "\(name): \(response.text)")
                let error = try response.apiError()
                #expect(["malformed_multipart", "missing_image", "invalid_content_type"].contains(error.code), "\(name)")
            }
        }
    }

    @Test func undecodableImages() async throws {
        let png = try TestImages.png("broken")
        try await withApp { client in
            for (name, body) in [("text", Array("hello, not an image".utf8)), ("truncated PNG", Array(png.prefix(png.count / 2))),
                                 ("PNG signature only", Array(png.prefix(8))), ("random", (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) })] {
                let response = try await decode(client, body: body)
                #expect(response.status == .unprocessableContent, "\(name)")
                #expect(try response.apiError().code == "undecodable_image", "\(name)")
            }
        }
    }

    @Test func tooManyPixels() async throws {
        let big = try PNGEncoder.encode(GrayImage(width: 400, height: 300), bitDepth: 1)
        try await withApp(QRServerConfiguration(maxPixels: 100_000)) { client in
            let response = try await decode(client, body: big)
            #expect(response.status == .unprocessableContent)
            let error = try response.apiError()
            #expect(error.code == "too_many_pixels")
            #expect(error.message.contains("400×300"))
        }
    }

    @Test func bodyOverTheLimit() async throws {
        let body = [UInt8](repeating: 0x42, count: 5000)
        try await withApp(QRServerConfiguration(maxBodyBytes: 4096)) { client in
            // Refused from Content-Length before reading, and while streaming when no length is given.
            for headers: HTTPFields in [[.contentType: "image/png", .contentLength: "5000"], .contentType("image/png")] {
                let response = try await decode(client, headers: headers, body: body)
                #expect(response.status == .contentTooLarge)
                let error = try response.apiError()
                #expect(error.code == "body_too_large")
                #expect(error.message.contains("4 KiB"))
            }
            let encode = try await client.execute(uri: "/api/encode", method: .post, headers: .contentType("application/json"),
                                                  body: ByteBuffer(body))
            #expect(encode.status == .contentTooLarge)
        }
    }

    @Test func bodyOverTheLimitOnARealConnection() async throws {
        let app = try QRWebServer.application(configuration: QRServerConfiguration(maxBodyBytes: 64 << 10))
        try await app.test(.live) { client in
            let response = try await client.execute(uri: "/api/decode", method: .post, headers: .contentType("image/png"),
                                                    body: ByteBuffer(repeating: 0x42, count: 1 << 20))
            #expect(response.status == .contentTooLarge)
            #expect(try response.apiError().code == "body_too_large")
        }
        // A fresh connection gets served as usual afterwards.
        try await app.test(.live) { client in
            let health = try await client.execute(uri: "/healthz", method: .get)
            #expect(health.status == .ok)
            #expect(health.text.contains("\"admitted\":0"))
        }
    }

    /// A client that announces a body and then sends nothing holds an admission slot only until the body
    /// timeout: it is answered 408 (or, on a machine so busy that the answer comes later than the connection's
    /// silence allows, the connection is closed), and the slot is free again.
    @Test func aWithheldBodyTimesOutAndFreesItsSlot() async throws {
        let app = try QRWebServer.application(configuration: QRServerConfiguration(maxQueuedJobs: 0, bodyTimeout: .milliseconds(300)))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let withholding = try RawConnection(port: port)
            try withholding.send("POST /api/decode HTTP/1.1\r\nHost: localhost\r\nContent-Type: image/png\r\n"
                + "Content-Length: 100000\r\n\r\nPNG")
            // The whole JSON error, which ends the response.
            let answer = withholding.receive(until: "}}", waitingAtMost: 15)
            #expect(answer.isEmpty || answer.hasPrefix("HTTP/1.1 408") && answer.contains("\"body_timeout\""),
                    "answered \(answer.prefix(60))")
            // Asked on fresh connections: the test client's own may have been closed as silent meanwhile.
            let health = try RawConnection(port: port)
            try health.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            #expect(health.receive(until: "}", waitingAtMost: 15).contains("\"admitted\":0"))
            let image = try TestImages.png("after the timeout")
            let upload = try RawConnection(port: port)
            try upload.send("POST /api/decode HTTP/1.1\r\nHost: localhost\r\nContent-Type: image/png\r\n"
                + "Content-Length: \(image.count)\r\nConnection: close\r\n\r\n")
            try upload.send(image)
            #expect(upload.receive(until: "after the timeout", waitingAtMost: 15).hasPrefix("HTTP/1.1 200"))
        }
    }

    @Test(arguments: ["accuracy=slow", "max=0", "max=101", "max=two", "region=1,2,3", "region=0,0,0,1", "region=-1,0,1,1",
                      "region=a,b,c,d", "region=0,0,nan,1", "inverted=maybe", "mixed_polarity=2", "downscale=2", "accuracy=%ZZ"])
    func badDecodeQueries(query: String) async throws {
        let png = try TestImages.png("query")
        try await withApp { client in
            let response = try await decode(client, query: "?\(query)", body: png)
            #expect(response.status == .badRequest, "\(query)")
            let error = try response.apiError()
            #expect(["invalid_parameter", "invalid_query"].contains(error.code))
        }
    }

    @Test(arguments: [
        ("", "missing_text", 400), ("text=", "missing_text", 400), ("text=x&level=Z", "invalid_parameter", 400),
        ("text=x&version=41", "invalid_parameter", 400), ("text=x&version=5-2", "invalid_parameter", 400),
        ("text=x&mask=8", "invalid_parameter", 400), ("text=x&moduleSize=0", "invalid_parameter", 400),
        ("text=x&moduleSize=65", "invalid_parameter", 400), ("text=x&moduleSize=4&size=100", "invalid_parameter", 400),
        ("text=x&quietZone=-1", "invalid_parameter", 400), ("text=x&foreground=bluish", "invalid_color", 400),
        ("text=x&background=%23GGG", "invalid_color", 400), ("text=x&format=gif", "invalid_parameter", 400),
        ("text=x&boost=perhaps", "invalid_parameter", 400), ("text=x&logoShare=80", "invalid_parameter", 400),
        ("text=x&version=1&size=22", "invalid_style", 400),
        ("text=\(String(repeating: "a", count: 3000))&version=1-10", "data_too_long", 422),
        ("text=\(String(repeating: "9", count: 10_001))", "data_too_long", 422),
        ("text=\(String(repeating: "Z", count: 1000))&moduleSize=64", "image_too_large", 400),
    ])
    func badEncodeParameters(query: String, code: String, status: Int) async throws {
        try await withApp { client in
            let response = try await client.execute(uri: "/api/encode?\(query)", method: .get)
            #expect(Int(response.status.code) == status, "\(query.prefix(60)): \(response.text)")
            let error = try response.apiError()
            #expect(error.code == code, "\(query.prefix(60))")
            #expect(!error.message.isEmpty)
        }
    }

    @Test func badEncodeBodies() async throws {
        try await withApp { client in
            for body in ["[1, 2]", "{\"text\": {\"nested\": 1}}", "{not json", "\"text\""] {
                let response = try await client.execute(uri: "/api/encode", method: .post, headers: .contentType("application/json"),
                                                        body: ByteBuffer(Array(body.utf8)))
                #expect(response.status == .badRequest, "\(body)")
                #expect(try response.apiError().code == "invalid_json")
            }
            var notAnImage = MultipartBody()
            notAnImage.field("text", "logo test")
            notAnImage.file("logo", filename: "logo.png", type: "image/png", Array("not a picture".utf8))
            let logo = try await client.execute(uri: "/api/encode", method: .post, headers: .contentType(notAnImage.contentType),
                                                body: ByteBuffer(notAnImage.finished))
            #expect(logo.status == .unprocessableContent)
            #expect(try logo.apiError().message.hasPrefix("Logo: "))

            var latin1 = MultipartBody()
            latin1.field("text", "ok")
            let bytes = latin1.bytes + Array("--\(latin1.boundary)\r\nContent-Disposition: form-data; name=\"level\"\r\n\r\n".utf8)
                + [0xE9, 0xFF] + Array("\r\n--\(latin1.boundary)--\r\n".utf8)
            let invalidText = try await client.execute(uri: "/api/encode", method: .post, headers: .contentType(latin1.contentType),
                                                       body: ByteBuffer(bytes))
            #expect(invalidText.status == .badRequest)
            #expect(try invalidText.apiError().code == "invalid_form")

            // A form body's percent-encoding is the form's, not the query string's.
            let badForm = try await client.execute(uri: "/api/encode", method: .post,
                                                   headers: .contentType("application/x-www-form-urlencoded"),
                                                   body: ByteBuffer(Array("text=hi%ZZ".utf8)))
            #expect(badForm.status == .badRequest)
            let formError = try badForm.apiError()
            #expect(formError.code == "invalid_form")
            #expect(formError.message.hasPrefix("The form body has invalid percent-encoding"))
        }
    }

    @Test func logoThatCannotFitIsRefused() async throws {
        let logo = try PNGEncoder.encode(RGBAImage(width: 10, height: 10, color: RGBAPixel(red: 0, green: 0, blue: 255, alpha: 255)))
        var form = MultipartBody()
        form.field("text", "tiny")
        form.field("level", "L")
        form.field("version", "1")
        form.file("logo", filename: "logo.png", type: "image/png", logo)
        let request = form
        try await withApp { client in
            let response = try await client.execute(uri: "/api/encode", method: .post, headers: .contentType(request.contentType),
                                                    body: ByteBuffer(request.finished))
            #expect(response.status == .unprocessableContent)
            #expect(try response.apiError().code == "logo_does_not_fit")
        }
    }
}
