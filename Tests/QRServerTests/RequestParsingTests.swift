import Foundation
import QRTestSupport
import Testing
@testable import QRServer

@Suite("multipart/form-data parser")
struct MultipartFormDataTests {
    private let boundary = "----WebKitFormBoundary7MA4YWxkTrZu0gW"

    @Test func readsFieldsAndFilesWithPreambleAndEpilogue() throws {
        let body = Array(("preamble to ignore\r\n--\(boundary)\r\n"
            + "Content-Disposition: form-data; name=\"text\"\r\n\r\nhello\r\nworld\r\n"
            + "--\(boundary)  \r\n"
            + "content-disposition: form-data; name=\"logo\"; filename=\"a \\\"b\\\".png\"\r\ncontent-type: image/png\r\n\r\n").utf8)
            + [0, 13, 10, 45, 45, 255] + Array("\r\n--\(boundary)--\r\nepilogue".utf8)
        let parts = try MultipartFormData.parse(body, boundary: boundary)
        #expect(parts.count == 2)
        #expect(parts[0] == MultipartPart(name: "text", filename: nil, contentType: nil, body: Array("hello\r\nworld".utf8)))
        #expect(parts[1].name == "logo")
        #expect(parts[1].filename == "a \"b\".png")
        #expect(parts[1].contentType == "image/png")
        #expect(parts[1].body == [0, 13, 10, 45, 45, 255])
    }

    @Test func emptyPartsAndQuotedBoundaries() throws {
        let type = try #require(ContentType("multipart/form-data; boundary=\"a b:c\""))
        #expect(type.parameters["boundary"] == "a b:c")
        let body = Array("--a b:c\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\n\r\n--a b:c--".utf8)
        #expect(try MultipartFormData.parse(body, boundary: "a b:c") == [MultipartPart(name: "x", filename: nil, contentType: nil, body: [])])
    }

    @Test(arguments: [
        ("", "does not contain the boundary"),
        ("--B--\r\n", "no parts"),
        ("--B\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nunterminated", "not closed"),
        ("--B\r\nContent-Disposition: form-data; name=\"a\"\r\nno blank line\r\n--B--", "empty line"),
        ("--B\r\n\r\nno headers\r\n--B--", "Content-Disposition"),
        ("--B\r\nContent-Disposition: attachment; name=\"a\"\r\n\r\nx\r\n--B--", "Content-Disposition"),
        ("--B\r\nContent-Disposition: form-data; filename=\"a\"\r\n\r\nx\r\n--B--", "Content-Disposition"),
        ("--B\r\nContent-Disposition form-data\r\n\r\nx\r\n--B--", "colon"),
        ("--Bxyz\r\n", "CRLF"),
        ("--B\r\nContent-Disposition: form-data; name=\"a\r\n\r\nx\r\n--B--", "Content-Disposition"),
    ])
    func refusesMalformedBodies(body: String, reason: String) {
        #expect {
            try MultipartFormData.parse(Array(body.utf8), boundary: "B")
        } throws: { error in
            (error as? MultipartError)?.description.contains(reason) == true
        }
    }

    @Test func refusesBadBoundariesAndTooManyParts() {
        for boundary in ["", String(repeating: "x", count: 71), "semi;colon", "ends with space "] {
            #expect(!MultipartFormData.isValidBoundary(boundary), "\(boundary)")
        }
        var many = ""
        for index in 0...MultipartFormData.maximumParts { many += "--B\r\nContent-Disposition: form-data; name=\"f\(index)\"\r\n\r\nx\r\n" }
        many += "--B--"
        #expect(throws: MultipartError.self) { try MultipartFormData.parse(Array(many.utf8), boundary: "B") }
    }

    @Test func headersLongerThanTheLimitAreRefused() {
        let header = "Content-Disposition: form-data; name=\"a\"\r\nX-Padding: " + String(repeating: "p", count: MultipartFormData.maximumHeaderBytes)
        let body = Array("--B\r\n\(header)\r\n\r\nx\r\n--B--".utf8)
        #expect(throws: MultipartError.self) { try MultipartFormData.parse(body, boundary: "B") }
    }

    @Test func randomBytesNeverCrash() {
        var random = SeededGenerator(seed: 0x5eed)
        let alphabet = Array("--B\r\n:;=\"form-data; name\"x".utf8)
        for _ in 0..<3000 {
            let count = Int.random(in: 0..<120, using: &random)
            let body = (0..<count).map { _ in
                Bool.random(using: &random) ? alphabet.randomElement(using: &random) ?? 0 : UInt8.random(in: 0...255, using: &random)
            }
            if let parts = try? MultipartFormData.parse(Array("--B\r\n".utf8) + body, boundary: "B") {
                #expect(!parts.isEmpty && parts.count <= MultipartFormData.maximumParts)
            }
        }
    }
}

@Suite("Request parsing")
struct RequestParsingTests {
    @Test func contentTypes() throws {
        let type = try #require(ContentType("Multipart/Form-Data ; Boundary=AbC ; charset=\"utf-8\""))
        #expect(type.essence == "multipart/form-data")
        #expect(type.parameters == ["boundary": "AbC", "charset": "utf-8"])
        for bad in ["", "image", "image/", "/png", "image/png; =x", "image/png; a=\"open", "im age/png", "image/png; a=b c"] {
            #expect(ContentType(bad) == nil, "\(bad)")
        }
    }

    @Test func acceptNegotiation() {
        #expect(EncodeFormat.negotiate(accept: nil) == .png)
        #expect(EncodeFormat.negotiate(accept: "image/svg+xml") == .svg)
        #expect(EncodeFormat.negotiate(accept: "application/json") == .json)
        #expect(EncodeFormat.negotiate(accept: "*/*") == .png)
        #expect(EncodeFormat.negotiate(accept: "image/*") == .png)
        #expect(EncodeFormat.negotiate(accept: "image/png;q=0.5, image/svg+xml") == .svg)
        #expect(EncodeFormat.negotiate(accept: "application/json, image/*;q=0.9") == .json)
        #expect(EncodeFormat.negotiate(accept: "text/html") == .png)
        #expect(EncodeFormat.negotiate(accept: "image/svg+xml;q=0") == .png)
    }

    @Test func queryStrings() throws {
        let query = try QueryString("text=a+b%20c%26&empty=&flag&text2=%E4%B8%96")
        #expect(query["text"] == "a b c&")
        #expect(query["empty"] == "")
        #expect(query["flag"] == "")
        #expect(query["text2"] == "世")
        #expect(try QueryString(nil).values.isEmpty)
        #expect(throws: APIError.self) { try QueryString("a=%") }
        #expect(throws: APIError.self) { try QueryString("a=%FF") }
    }

    @Test func decodeRegionsAreTurnedIntoTheStoredFrame() throws {
        let parameters = try DecodeParameters(query: QueryString("region=0,0,0.5,0.25&max=3&accuracy=fast&inverted=0&downscale=no"))
        #expect(parameters.maximumCodes == 3 && parameters.accuracy == .fast && !parameters.tryInverted && !parameters.tryDownscale)
        // Stored 200 × 100, displayed turned 90° clockwise as 100 × 200: the displayed top-left 50 × 50
        // square is the stored image's bottom-left one.
        let options = parameters.readerOptions(storedWidth: 200, storedHeight: 100, orientation: .right, timeBudget: .seconds(1))
        #expect(options.regionOfInterest == .pixels(.init(x: 0, y: 50, width: 50, height: 50)))
        #expect(options.timeBudget == .seconds(1))
        #expect(!options.tryInverted && !options.tryDownscale)
        let defaults = try DecodeParameters(query: QueryString(nil)).readerOptions(storedWidth: 10, storedHeight: 10, orientation: .up,
                                                                                  timeBudget: .seconds(1))
        #expect(defaults.tryDownscale && defaults.tryInverted && !defaults.mixedPolarity)
        #expect(try DecodeParameters(query: QueryString("mixed_polarity=true")).readerOptions(
            storedWidth: 10, storedHeight: 10, orientation: .up, timeBudget: .seconds(1)).mixedPolarity)
    }
}
