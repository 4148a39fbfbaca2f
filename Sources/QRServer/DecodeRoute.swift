internal import HTTPTypes
internal import Hummingbird
import QRImage
import QRReader

/// `POST /api/decode`: every QR code in an uploaded image.
struct DecodeRoute: Sendable {
    let configuration: QRServerConfiguration
    let limiter: WorkLimiter

    func handle(_ request: Request, context: some RequestContext) async throws -> Response {
        // Everything that can be judged without the body is judged first.
        let parameters = try DecodeParameters(query: QueryString(request.uri.query))
        let envelope = try ImageUpload.envelope(contentType: request.headers[.contentType])
        let response = try await limiter.withAdmission {
            let body = try await BodyReader.collect(request, limit: configuration.maxBodyBytes,
                                                      timeout: configuration.bodyTimeout)
            let image = try ImageUpload.image(in: body, envelope: envelope)
            let configuration = self.configuration
            return try await limiter.perform { try Self.decode(image, parameters: parameters, configuration: configuration) }
        }
        return try JSONCoding.response(response)
    }

    /// Decodes the image within the pixel limit and reads its codes within the time budget. A multi-page TIFF
    /// is read on its first page only (both conversions): a response describes one image.
    static func decode(_ bytes: [UInt8], parameters: DecodeParameters,
                       configuration: QRServerConfiguration) throws(APIError) -> DecodeResponse {
        let decoder = ImageDecoder(limits: ImageLimits(maxPixels: configuration.maxPixels,
                                                       maxFileSize: configuration.maxBodyBytes))
        let decoded: DecodedImage<GrayImage>
        do {
            decoded = try decoder.decodeGray(bytes)
        } catch {
            throw .from(error)
        }
        let image = decoded.image
        let options = parameters.readerOptions(storedWidth: image.width, storedHeight: image.height,
                                               orientation: decoded.orientation,
                                               timeBudget: configuration.decodeTimeBudget)
        let report = QRCodeReader(options: options).readReport(image) {
            try? decoder.decodeGray(bytes, conversion: .darkestChannel).image
        }
        var response = DecodeResponse(report: report, format: decoded.format, orientation: decoded.orientation,
                                      storedWidth: image.width, storedHeight: image.height)
        if parameters.preview && DecodeResponse.formatsWithoutBrowserSupport.contains(decoded.format) {
            response.preview = DecodeResponse.preview(of: image, orientation: decoded.orientation)
        }
        return response
    }
}
