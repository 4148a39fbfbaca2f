internal import HTTPTypes
internal import Hummingbird

/// The image bytes of a decode request: the raw body, or the file part of a `multipart/form-data` body.
enum ImageUpload {
    static let accepted = "an image (PNG, JPEG, GIF, BMP, TIFF or PNM) as the raw body with an image/* or application/octet-stream "
        + "content type, or as the file of a multipart/form-data form"

    /// Field names looked for first in a form; otherwise the first part with a file name is taken.
    static let fieldNames: Set<String> = ["image", "file"]

    /// How the body carries the image, decided from `Content-Type` before the body is read.
    enum Envelope: Equatable {
        case raw
        case multipart(boundary: String)
    }

    /// The envelope for a `Content-Type` header, or 415/400 for one that cannot carry an image.
    static func envelope(contentType header: String?) throws(APIError) -> Envelope {
        // No content type: the bytes themselves tell the format.
        guard let header, !header.trimmingSpaces().isEmpty else { return .raw }
        guard let type = ContentType(header) else {
            throw .badRequest("invalid_content_type", "The Content-Type header “\(header.prefix(80))” is malformed.")
        }
        switch (type.type, type.subtype) {
        case ("multipart", "form-data"):
            guard let boundary = type.parameters["boundary"] else {
                throw .badRequest("malformed_multipart", "The multipart/form-data content type has no boundary parameter.")
            }
            return .multipart(boundary: boundary)
        case ("image", _), ("application", "octet-stream"):
            return .raw
        default:
            throw .unsupportedMediaType(type.essence, expected: accepted)
        }
    }

    /// The image bytes in `body`.
    static func image(in body: [UInt8], envelope: Envelope) throws(APIError) -> [UInt8] {
        guard !body.isEmpty else { throw .emptyBody(accepted) }
        switch envelope {
        case .raw:
            return body
        case let .multipart(boundary):
            let parts: [MultipartPart]
            do {
                parts = try MultipartFormData.parse(body, boundary: boundary)
            } catch {
                throw .badRequest("malformed_multipart", "The multipart/form-data body is malformed: \(error).")
            }
            guard let part = parts.first(where: { fieldNames.contains($0.name) }) ?? parts.first(where: { $0.filename != nil })
            else {
                throw .badRequest("missing_image", "The form has no image: send it as a file field named “image”.")
            }
            guard !part.body.isEmpty else {
                throw .badRequest("empty_body", "The form's “\(part.name)” field is empty: choose an image file.")
            }
            return part.body
        }
    }
}
