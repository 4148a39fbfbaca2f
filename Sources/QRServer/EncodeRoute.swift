import Foundation
internal import HTTPTypes
internal import Hummingbird
internal import NIOCore

/// `GET|POST /api/encode`: a QR code as PNG, SVG or JSON.
///
/// GET takes its fields from the query string. POST also reads them from the body, as JSON, a URL-encoded
/// form or a multipart form (the only way to send a logo, as the file field `logo`); body fields override
/// query fields. The format is the `format` field, else the best match for `Accept`, else PNG.
struct EncodeRoute: Sendable {
    let configuration: QRServerConfiguration
    let limiter: WorkLimiter

    static let acceptedBodies = "application/json, application/x-www-form-urlencoded or multipart/form-data"

    func handle(_ request: Request, context: some RequestContext) async throws -> Response {
        var fields = try QueryString(request.uri.query).values
        let envelope = request.method == .post ? try Self.envelope(contentType: request.headers[.contentType]) : nil
        let (output, format) = try await limiter.withAdmission {
            var logo: [UInt8]?
            if let envelope {
                let body = try await BodyReader.collect(request, limit: configuration.maxBodyBytes,
                                                          timeout: configuration.bodyTimeout)
                let sent = try Self.fields(in: body, envelope: envelope)
                fields.merge(sent.fields) { _, body in body }
                logo = sent.logo
            }
            let parameters = try EncodeParameters(fields: fields, logo: logo)
            let job = EncodeJob(parameters: parameters,
                                format: parameters.format ?? EncodeFormat.negotiate(accept: request.headers[.accept]),
                                configuration: configuration)
            return (try await limiter.perform { try job.run() }, job.format)
        }
        var headers = HTTPFields()
        headers[.contentType] = format.contentType
        headers[.cacheControl] = "no-store"
        for (name, value) in output.metadata.headers {
            if let name = HTTPField.Name(name) { headers[name] = value }
        }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: output.body)))
    }

    /// How a POST body carries its fields.
    enum Envelope: Equatable {
        case none, json, urlEncoded
        case multipart(boundary: String)
    }

    static func envelope(contentType header: String?) throws(APIError) -> Envelope {
        guard let header, !header.trimmingSpaces().isEmpty else { return .none }
        guard let type = ContentType(header) else {
            throw .badRequest("invalid_content_type", "The Content-Type header “\(header.prefix(80))” is malformed.")
        }
        switch type.essence {
        case "application/json": return .json
        case "application/x-www-form-urlencoded": return .urlEncoded
        case "multipart/form-data":
            guard let boundary = type.parameters["boundary"] else {
                throw .badRequest("malformed_multipart", "The multipart/form-data content type has no boundary parameter.")
            }
            return .multipart(boundary: boundary)
        default:
            throw .unsupportedMediaType(type.essence, expected: acceptedBodies)
        }
    }

    /// The fields and logo file in a POST body.
    static func fields(in body: [UInt8], envelope: Envelope) throws(APIError) -> (fields: [String: String], logo: [UInt8]?) {
        switch envelope {
        case .none:
            guard body.isEmpty else {
                throw .unsupportedMediaType("(none)", expected: acceptedBodies)
            }
            return ([:], nil)
        case .json:
            guard !body.isEmpty else { throw .emptyBody("a JSON object such as {\"text\": \"hello\"}") }
            do {
                let object = try JSONDecoder().decode([String: JSONScalar].self, from: Data(body))
                return (object.compactMapValues(\.text), nil)
            } catch {
                throw .badRequest("invalid_json", "The body must be a JSON object whose values are strings, numbers or booleans.")
            }
        case .urlEncoded:
            guard let text = String(validating: body, as: UTF8.self) else {
                throw .badRequest("invalid_form", "The form body is not UTF-8 text.")
            }
            return (try QueryString(text, from: .formBody).values, nil)
        case let .multipart(boundary):
            guard !body.isEmpty else { throw .emptyBody("a multipart form with a “text” field") }
            let parts: [MultipartPart]
            do {
                parts = try MultipartFormData.parse(body, boundary: boundary)
            } catch {
                throw .badRequest("malformed_multipart", "The multipart/form-data body is malformed: \(error).")
            }
            var fields: [String: String] = [:]
            var logo: [UInt8]?
            for part in parts {
                if part.name == "logo" {
                    // An empty file input is sent as an empty part: no logo.
                    if !part.body.isEmpty { logo = part.body }
                    continue
                }
                guard let text = part.text else {
                    throw .badRequest("invalid_form", "The form field “\(part.name.prefix(40))” is not UTF-8 text.")
                }
                fields[part.name] = text
            }
            return (fields, logo)
        }
    }
}

/// A JSON value allowed as an encode field: text, a number or a boolean (null means "not given").
private enum JSONScalar: Decodable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case null

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else {
            self = .number(try container.decode(Double.self))
        }
    }

    /// The value as the text a query string would carry.
    var text: String? {
        switch self {
        case let .string(text): return text
        case let .bool(flag): return flag ? "true" : "false"
        case let .number(value):
            if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
            return String(value)
        case .null: return nil
        }
    }
}
