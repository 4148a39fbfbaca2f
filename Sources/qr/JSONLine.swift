import Foundation
import QRKit

/// The JSON Lines of `qr read --json` (one object per code, or one per image without codes) and `qr watch --json`.
enum JSONLine {
    static func code(_ code: ReadResult, scan: ImageScanner.Scan, image: String) -> String {
        var object = fields(of: code)
        object["image"] = image
        object["decode_ms"] = (scan.decodeMilliseconds * 1000).rounded() / 1000
        if scan.orientation != .up {
            // Corners are in the stored pixel frame; also give them as the image is displayed.
            object["corners_oriented"] = points(code.corners.corners.map {
                scan.orientation.displayPoint(fromStored: $0, storedWidth: scan.storedWidth, storedHeight: scan.storedHeight)
            })
            object["exif_orientation"] = scan.orientation.rawValue
        }
        return serialize(object)
    }

    /// What a code says about itself, shared by `qr read --json` and `qr watch --json`.
    static func fields(of code: ReadResult) -> [String: Any] {
        var object: [String: Any] = [
            "text": code.text,
            "bytes_hex": hex(code.bytes),
            "corners": points(code.corners.corners),
            "bounds": ["x": code.bounds.minX, "y": code.bounds.minY, "width": code.bounds.width, "height": code.bounds.height],
            "center": [code.center.x, code.center.y],
            "symbology": code.symbology.rawValue,
            "version": code.versionName,
            "columns": code.columns,
            "rows": code.rows,
            "level": code.errorCorrectionLevel.letter,
            "mask": code.mask,
            "mirrored": code.mirrored,
            "inverted": code.inverted,
            "corrected_codewords": code.correctedCodewords,
            "correctable_codewords": code.correctableCodewords,
        ]
        if let charset = code.charset {
            object["charset"] = charset.name
            object["charset_guessed"] = code.charsetGuessed
        }
        if !code.eciAssignments.isEmpty { object["eci"] = code.eciAssignments }
        if let header = code.structuredAppend {
            object["structured_append"] = ["index": header.index, "count": header.count, "parity": Int(header.parity)]
        }
        if !code.parts.isEmpty { object["parts"] = code.parts.map(\.text) }
        switch code.fnc1 {
        case .gs1?: object["fnc1"] = "gs1"
        case let .industry(indicator)?: object["fnc1"] = ["application_indicator": indicator]
        case nil: break
        }
        return object
    }

    static func empty(image: String, scan: ImageScanner.Scan) -> String {
        serialize(["image": image, "results": [Any](), "decode_ms": (scan.decodeMilliseconds * 1000).rounded() / 1000])
    }

    static func error(image: String, message: String) -> String { serialize(["image": image, "error": message]) }

    private static func points(_ corners: [Point]) -> [[Double]] {
        corners.map { [($0.x * 100).rounded() / 100, ($0.y * 100).rounded() / 100] }
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        var result = ""
        result.reserveCapacity(bytes.count * 2)
        for b in bytes {
            result.append(digits[Int(b >> 4)])
            result.append(digits[Int(b & 15)])
        }
        return result
    }

    static func serialize(_ object: [String: Any]) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else {
            return "{}"
        }
        return String(decoding: data, as: UTF8.self)
    }
}
