import Foundation
import QRCore
import QRImage
import QRReader

/// The JSON body of `POST /api/decode`: every code found, in the image as it is displayed (Exif orientation
/// applied, as browsers show it).
struct DecodeResponse: Encodable, Sendable {
    let codes: [Code]
    /// Displayed width and height in pixels.
    let width: Int
    let height: Int
    /// `png`, `jpeg`, `pnm`, `gif`, `bmp` or `tiff`.
    let format: String
    /// The Exif orientation (1…8) that was applied to the corners.
    let orientation: Int
    /// Whether the server's decode time budget cut the search short: a code may have been missed.
    let timedOut: Bool
    /// For an image browsers cannot show (PNM, TIFF), when asked: a `data:image/png` URL of it as displayed, in
    /// gray, shrunk to at most ``previewSide`` pixels on its longer side, for the page to draw the outlines on.
    var preview: String?

    /// The longest side of a ``preview``.
    static let previewSide = 2048

    /// Formats a browser's `<img>` cannot show.
    static let formatsWithoutBrowserSupport: Set<ImageFormat> = [.pnm, .tiff]

    /// The ``preview`` of `image`, stored with `orientation`; nil if it cannot be encoded.
    static func preview(of image: GrayImage, orientation: ExifOrientation) -> String? {
        let shown = orientation.apply(to: image)
        let factor = (max(shown.width, shown.height) + previewSide - 1) / previewSide
        guard let small = try? shown.downscaled(by: max(1, factor)), let png = try? PNGEncoder.encode(small) else { return nil }
        return "data:image/png;base64," + Data(png).base64EncodedString()
    }

    /// A point in displayed image pixels, origin top-left.
    struct PointDTO: Encodable, Equatable, Sendable {
        let x: Double
        let y: Double

        init(_ point: Point) {
            // Hundredths of a pixel are plenty and keep the JSON short.
            x = (point.x * 100).rounded() / 100
            y = (point.y * 100).rounded() / 100
        }
    }

    struct RectDTO: Encodable, Equatable, Sendable {
        let x: Double
        let y: Double
        let width: Double
        let height: Double

        init(_ rect: Rect) {
            let origin = PointDTO(rect.origin)
            x = origin.x
            y = origin.y
            width = (rect.width * 100).rounded() / 100
            height = (rect.height * 100).rounded() / 100
        }
    }

    struct StructuredAppendDTO: Encodable, Equatable, Sendable {
        let index: Int
        let count: Int
        let parity: Int
    }

    /// One symbol of a joined Structured Append message.
    struct Part: Encodable, Equatable, Sendable {
        let text: String
        let corners: [PointDTO]
    }

    struct Code: Encodable, Equatable, Sendable {
        let text: String
        let bytesBase64: String
        /// The symbol's own top-left, top-right, bottom-right and bottom-left corners.
        let corners: [PointDTO]
        let bounds: RectDTO
        let center: PointDTO
        /// "QR Code", "Micro QR Code", "QR Code Model 1" or "rMQR Code".
        let symbology: String
        /// The version number within the symbology (1…40, M1…M4 as 1…4).
        let version: Int
        /// The version as people write it: "7", "M3", "R13x77".
        let versionName: String
        /// Modules across and down.
        let columns: Int
        let rows: Int
        /// L, M, Q or H.
        let level: String
        /// The share of codewords the level restores, in percent (7, 15, 25, 30).
        let recoveryPercent: Int
        let mask: Int
        let mirrored: Bool
        let inverted: Bool
        let charset: String?
        let charsetGuessed: Bool
        let eci: [Int]
        let fnc1: String?
        let structuredAppend: StructuredAppendDTO?
        let parts: [Part]
        let correctedCodewords: Int
        let correctableCodewords: Int
    }

    /// The response for `results` found in a stored image of `storedWidth` × `storedHeight` pixels.
    init(report: ReadReport, format: ImageFormat, orientation: ExifOrientation, storedWidth: Int, storedHeight: Int) {
        let toDisplay = { (point: Point) in
            orientation.displayPoint(fromStored: point, storedWidth: storedWidth, storedHeight: storedHeight)
        }
        // A mirroring orientation shows every symbol mirrored relative to how it is stored.
        let mirroring: Set<ExifOrientation> = [.upMirrored, .downMirrored, .leftMirrored, .rightMirrored]
        timedOut = report.timedOut
        codes = report.results.map { result in
            let corners = result.corners.map(toDisplay)
            return Code(
                text: result.text,
                bytesBase64: Data(result.bytes).base64EncodedString(),
                corners: corners.corners.map(PointDTO.init),
                bounds: RectDTO(corners.boundingRect),
                center: PointDTO(corners.center),
                symbology: result.symbology.rawValue,
                version: result.version,
                versionName: result.versionName,
                columns: result.columns,
                rows: result.rows,
                level: result.errorCorrectionLevel.letter,
                recoveryPercent: result.errorCorrectionLevel.recoveryPercent,
                mask: result.mask,
                mirrored: result.mirrored != mirroring.contains(orientation),
                inverted: result.inverted,
                charset: result.charset?.name,
                charsetGuessed: result.charsetGuessed,
                eci: result.eciAssignments,
                fnc1: result.fnc1.map { fnc1 in
                    switch fnc1 {
                    case .gs1: return "gs1"
                    case let .industry(indicator): return "industry:\(indicator)"
                    }
                },
                structuredAppend: result.structuredAppend.map {
                    StructuredAppendDTO(index: $0.index, count: $0.count, parity: Int($0.parity))
                },
                parts: result.parts.map { Part(text: $0.text, corners: $0.corners.map(toDisplay).corners.map(PointDTO.init)) },
                correctedCodewords: result.correctedCodewords,
                correctableCodewords: result.correctableCodewords)
        }
        let size = orientation.orientedSize(width: storedWidth, height: storedHeight)
        width = size.width
        height = size.height
        self.format = format.rawValue.lowercased()
        self.orientation = orientation.rawValue
    }
}
