import Foundation
import QRCore
import QREncoder
import QRImage
import QRReader
import QRRender

/// Encodes and renders one code for `/api/encode`, with the library doing all the work.
struct EncodeJob: Sendable {
    let parameters: EncodeParameters
    let format: EncodeFormat
    let configuration: QRServerConfiguration

    /// The rendered code and what the client is told about it.
    struct Output: Sendable {
        let body: [UInt8]
        let metadata: EncodeMetadata
    }

    func run() throws(APIError) -> Output {
        let code: QRCode
        do {
            code = try QRCode.encode(parameters.text, options: parameters.options)
        } catch {
            throw .from(error)
        }
        var style = parameters.style
        let moduleSize: Int
        do {
            moduleSize = try style.moduleSize(forSymbolSize: code.size)
        } catch {
            throw .from(error)
        }
        let side = (code.size + 2 * style.quietZone) * moduleSize
        guard side <= EncodeParameters.maximumImageSide else {
            throw .badRequest("image_too_large", "The image would be \(side)×\(side) px, more than the limit of "
                + "\(EncodeParameters.maximumImageSide) px per side: use a smaller module size or quiet zone.")
        }
        if let logoBytes = parameters.logo {
            style.logo = try fittedLogo(logoBytes, code: code)
            try verifyByDecoding(code, style: style)
        }
        let metadata = EncodeMetadata(code: code, style: style, moduleSize: moduleSize, imageSize: side)
        do {
            switch format {
            case .png:
                return Output(body: try RasterRenderer.png(for: code, style: style), metadata: metadata)
            case .svg:
                return Output(body: Array(try SVGRenderer.svg(for: code, style: style).utf8), metadata: metadata)
            case .json:
                return Output(body: Array(try JSONCoding.encoder.encode(metadata)), metadata: metadata)
            }
        } catch let error as RenderError {
            throw .from(error)
        } catch {
            // Only JSON encoding of plain numbers and strings is left, which does not fail.
            throw APIError(status: .internalServerError, code: "internal_error", message: "The description could not be written.")
        }
    }

    /// The logo scaled to the share asked for, or to the largest share the symbol's error correction allows.
    private func fittedLogo(_ bytes: [UInt8], code: QRCode) throws(APIError) -> Logo {
        let decoder = ImageDecoder(limits: ImageLimits(maxPixels: configuration.maxPixels,
                                                       maxFileSize: configuration.maxBodyBytes))
        let image: RGBAImage
        do {
            image = try decoder.decodeRGBA(bytes).image
        } catch {
            let refusal = APIError.from(error)
            throw APIError(status: refusal.status, code: refusal.code, message: "Logo: \(refusal.message)")
        }
        do {
            if let share = parameters.logoShare {
                let logo = try Logo(image: image, areaShare: share)
                _ = try LogoPlacement.validate(code: code, logo: logo)
                return logo
            }
            return try LogoPlacement.largestFitting(code: code, image: image).logo
        } catch {
            throw .from(error)
        }
    }

    /// A logo relies on error correction: the rendered symbol must still read, as `qr make --logo` checks.
    private func verifyByDecoding(_ code: QRCode, style: RenderStyle) throws(APIError) {
        var check = style
        check.sizing = .moduleSize(4)
        let image: RGBAImage
        do {
            image = try RasterRenderer.image(for: code, style: check)
        } catch {
            throw .from(error)
        }
        let expected = code.segments.filter { $0.mode != .eci }.flatMap(\.payload)
        let reader = QRCodeReader(options: ReaderOptions(timeBudget: configuration.decodeTimeBudget))
        guard reader.read(GrayImage(image)).contains(where: { $0.bytes == expected }) else {
            throw APIError(status: .unprocessableContent, code: "logo_does_not_fit",
                           message: "The code with this logo does not decode: use a smaller logo share, level H, "
                               + "or colours with more contrast.")
        }
    }
}
