// Image files: PNG, JPEG (with EXIF), GIF, BMP, TIFF, PGM/PPM, as `qr read`, `qr serve` and `qr make --logo` take them.
import FuzzerSupport
import QRImage

@main enum Fuzzer {
    static func main() { runFuzzer(tryInput) }
}

func tryInput(_ bytes: [UInt8]) {
    // Small limits keep each run fast; the limits themselves are checked before any allocation.
    let decoder = ImageDecoder(limits: ImageLimits(maxPixels: 1 << 22, maxFileSize: 1 << 20))
    _ = try? decoder.decodeRGBA(bytes)
    _ = try? decoder.decodeGray(bytes, conversion: .darkestChannel)
    // A multi-page TIFF's chain of directories, and its last page (the first was decoded above).
    if let count = try? decoder.pageCount(bytes), count > 1 {
        _ = try? decoder.decodeGray(bytes, page: count - 1)
    }
}
