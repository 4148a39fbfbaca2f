/// The image file formats QRKit decodes, recognised by their leading bytes (never by file name).
public enum ImageFormat: String, Sendable, Hashable, CustomStringConvertible {
    case png = "PNG"
    case jpeg = "JPEG"
    /// Netpbm: PBM, PGM and PPM, plain (P1–P3) and raw (P4–P6).
    case pnm = "PNM"
    /// GIF87a and GIF89a; the first frame is read.
    case gif = "GIF"
    /// Windows and OS/2 bitmaps.
    case bmp = "BMP"
    /// TIFF and BigTIFF, either byte order; any page is read (``ImageDecoder/pageCount(_:)``), the first by default.
    case tiff = "TIFF"

    public var description: String { rawValue }

    /// The format `bytes` start with; for anything else, a typed error naming what it looks like.
    public static func sniff(_ bytes: [UInt8]) throws(ImageError) -> ImageFormat {
        func starts(with prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && Array(bytes[offset..<offset + prefix.count]) == prefix
        }
        if starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if bytes.count >= 2, bytes[0] == UInt8(ascii: "P"), (UInt8(ascii: "1")...UInt8(ascii: "6")).contains(bytes[1]) {
            return .pnm
        }
        if starts(with: Array("GIF87a".utf8)) || starts(with: Array("GIF89a".utf8)) { return .gif }
        // "BM" alone is common in text; a bitmap's DIB header follows with one of the known sizes.
        if starts(with: Array("BM".utf8)), bytes.count >= 26,
           BMPDecoding.headerSizes.contains(Int(bytes[14]) | Int(bytes[15]) << 8 | Int(bytes[16]) << 16 | Int(bytes[17]) << 24) {
            return .bmp
        }
        // "II" (little-endian) or "MM" (big-endian), then 42 (TIFF) or 43 (BigTIFF) in that byte order.
        if [[0x49, 0x49, 0x2A, 0x00], [0x4D, 0x4D, 0x00, 0x2A], [0x49, 0x49, 0x2B, 0x00], [0x4D, 0x4D, 0x00, 0x2B]]
            .contains(where: { starts(with: $0) }) {
            return .tiff
        }
        throw .unsupportedFormat(describeUnknown(bytes))
    }

    /// A name for well-known formats QRKit does not read, so the message can say what the file is.
    private static func describeUnknown(_ bytes: [UInt8]) -> String {
        func ascii(_ range: Range<Int>) -> String? {
            guard bytes.count >= range.upperBound else { return nil }
            return String(decoding: bytes[range], as: UTF8.self)
        }
        if bytes.isEmpty { return "the data is empty" }
        if ascii(0..<4) == "RIFF", ascii(8..<12) == "WEBP" { return "WebP" }
        if ascii(4..<8) == "ftyp" {
            let brand = ascii(8..<12) ?? ""
            return ["heic", "heix", "mif1", "msf1"].contains(brand) ? "HEIF/HEIC" : brand == "avif" ? "AVIF" : "an ISO media file"
        }
        if ascii(0..<4) == "%PDF" { return "PDF" }
        if ascii(0..<2) == "P7" { return "PAM (P7)" }
        let text = bytes.prefix(256).drop { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        if text.starts(with: Array("<svg".utf8)) || text.starts(with: Array("<?xml".utf8)) { return "SVG/XML (render it to PNG first)" }
        let hex = bytes.prefix(4).map { byte in
            let digits = Array("0123456789ABCDEF")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
        }
        return "unknown signature \(hex.joined(separator: " "))"
    }
}
