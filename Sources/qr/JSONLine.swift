import QRKit

/// The JSON Lines of `qr read --json` (one object per code, or one per image without codes) and `qr watch --json`.
/// `page` is the page of a multi-page TIFF (from 1), nil for every other file, whose lines have no "page".
enum JSONLine {
    static func code(_ code: ReadResult, scan: ImageScanner.Scan, image: String, page: Int?) -> String {
        var object = fields(of: code)
        object["image"] = .string(image)
        if let page { object["page"] = .int(page) }
        object["decode_ms"] = milliseconds(scan.decodeMilliseconds)
        object["timed_out"] = .bool(scan.timedOut)
        if scan.orientation != .up {
            // Corners are in the stored pixel frame; also give them as the image is displayed.
            object["corners_oriented"] = points(code.corners.corners.map {
                scan.orientation.displayPoint(fromStored: $0, storedWidth: scan.storedWidth, storedHeight: scan.storedHeight)
            })
            object["exif_orientation"] = .int(scan.orientation.rawValue)
        }
        return JSONValue.object(object).text
    }

    /// What a code says about itself, shared by `qr read --json` and `qr watch --json`.
    static func fields(of code: ReadResult) -> [String: JSONValue] {
        var object: [String: JSONValue] = [
            "text": .string(code.text),
            "bytes_hex": .string(JSONText.hex(code.bytes)),
            "corners": points(code.corners.corners),
            "bounds": [
                "x": .double(code.bounds.minX), "y": .double(code.bounds.minY),
                "width": .double(code.bounds.width), "height": .double(code.bounds.height),
            ],
            "center": [.double(code.center.x), .double(code.center.y)],
            "symbology": .string(code.symbology.rawValue),
            "version": .string(code.versionName),
            "columns": .int(code.columns),
            "rows": .int(code.rows),
            "level": .string(code.errorCorrectionLevel.letter),
            "mask": .int(code.mask),
            "mirrored": .bool(code.mirrored),
            "inverted": .bool(code.inverted),
            "corrected_codewords": .int(code.correctedCodewords),
            "correctable_codewords": .int(code.correctableCodewords),
        ]
        if let charset = code.charset {
            object["charset"] = .string(charset.name)
            object["charset_guessed"] = .bool(code.charsetGuessed)
        }
        if !code.eciAssignments.isEmpty { object["eci"] = .array(code.eciAssignments.map(JSONValue.int)) }
        if let header = code.structuredAppend {
            object["structured_append"] = ["index": .int(header.index), "count": .int(header.count), "parity": .int(Int(header.parity))]
        }
        if !code.parts.isEmpty { object["parts"] = .array(code.parts.map { .string($0.text) }) }
        switch code.fnc1 {
        case .gs1?: object["fnc1"] = "gs1"
        case let .industry(indicator)?: object["fnc1"] = ["application_indicator": .int(indicator)]
        case nil: break
        }
        return object
    }

    static func empty(image: String, page: Int?, scan: ImageScanner.Scan) -> String {
        var object: [String: JSONValue] = ["image": .string(image), "results": [],
                                           "decode_ms": milliseconds(scan.decodeMilliseconds), "timed_out": .bool(scan.timedOut)]
        if let page { object["page"] = .int(page) }
        return JSONValue.object(object).text
    }

    static func error(image: String, page: Int?, message: String) -> String {
        var object: [String: JSONValue] = ["image": .string(image), "error": .string(message)]
        if let page { object["page"] = .int(page) }
        return JSONValue.object(object).text
    }

    /// A time in milliseconds, to the microsecond.
    static func milliseconds(_ value: Double) -> JSONValue { .double((value * 1000).rounded() / 1000) }

    /// A time in seconds, to the microsecond.
    static func seconds(_ value: Double) -> JSONValue { .double((value * 1_000_000).rounded() / 1_000_000) }

    private static func points(_ corners: [Point]) -> JSONValue {
        .array(corners.map { [.double(($0.x * 100).rounded() / 100), .double(($0.y * 100).rounded() / 100)] })
    }
}
