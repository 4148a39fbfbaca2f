import Testing
import QRTestSupport
import QRCore
import QREncoder
import QRImage
import QRRender

/// A symbol built by hand (no encoder): the version's function patterns plus pseudo-random data modules.
func makeCode(version number: Int = 1, level: ErrorCorrectionLevel = .medium, segments: [Segment] = [],
              structuredAppend: StructuredAppendInfo? = nil, seed: UInt64 = 1) throws -> QRCode {
    let version = try #require(Version(number))
    let template = SymbolTemplate.of(version)
    var modules = template.functionPatterns
    var random = SeededGenerator(seed: seed)
    for position in template.dataPositions { modules.storage[Int(position)] = UInt8(random.next() & 1) }
    return QRCode(version: version, errorCorrectionLevel: level, mask: try #require(MaskPattern(3)),
                  segments: segments, modules: modules, structuredAppend: structuredAppend)
}

/// Pixels of `image` that differ from the module drawing of `code` (quiet zone included).
func mismatches(_ image: RGBAImage, code: QRCode, quietZone: Int, moduleSize: Int, dark: RGBAPixel,
                light: RGBAPixel, skipping skipped: ModuleRect? = nil) -> Int {
    var count = 0
    for y in 0..<image.height {
        for x in 0..<image.width {
            let column = x / moduleSize - quietZone, row = y / moduleSize - quietZone
            if let skipped, skipped.contains(x: column, y: row) { continue }
            if image[x, y] != (code[column, row] ? dark : light) { count += 1 }
        }
    }
    return count
}

/// The bit depth and colour type bytes of a PNG's IHDR.
func pngHeader(_ png: [UInt8]) -> (bitDepth: UInt8, colorType: UInt8) { (png[24], png[25]) }

func hasChunk(_ png: [UInt8], _ type: String) -> Bool {
    let needle = Array(type.utf8)
    return png.indices.dropLast(3).contains { Array(png[$0..<$0 + 4]) == needle }
}

/// A square logo: opaque red with a transparent corner.
func makeLogo(width: Int = 40, height: Int = 40) throws -> RGBAImage {
    var image = try RGBAImage(width: width, height: height, color: RGBAPixel(red: 200, green: 0, blue: 0))
    // Drawing blends, so transparency is set pixel by pixel.
    for y in 0..<height / 4 {
        for x in 0..<width / 4 { image[x, y] = .clear }
    }
    return image
}
