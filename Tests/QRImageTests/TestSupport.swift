import Foundation
import QRImage
import QRTestSupport

enum Fixtures {
    /// The bytes of a file in Tests/QRImageTests/Fixtures.
    static func bytes(_ name: String) throws -> [UInt8] {
        guard let directory = Bundle.module.url(forResource: "Fixtures", withExtension: nil) else {
            throw CocoaError(.fileNoSuchFile)
        }
        return try ImageFile.read(directory.appendingPathComponent(name).path, maxBytes: 1 << 20)
    }
}

/// A gradient-and-shapes test picture with smooth areas (so JPEG stays close) and some structure.
func samplePicture(width: Int = 48, height: Int = 32) throws -> RGBAImage {
    var pixels: [UInt8] = []
    for y in 0..<height {
        for x in 0..<width {
            pixels += [UInt8(x * 255 / (width - 1)), UInt8(y * 255 / (height - 1)), UInt8((x + y) * 255 / (width + height - 2)), 255]
        }
    }
    return try RGBAImage(width: width, height: height, pixels: pixels)
}

/// The red, green and blue samples of a picture, without alpha.
func rgbSamples(_ picture: RGBAImage) -> [UInt8] {
    picture.pixels.enumerated().filter { $0.offset % 4 != 3 }.map(\.element)
}

/// A small, fully valid PNG, JPEG, GIF, BMP and TIFF to damage in robustness tests.
func smallPNG() throws -> [UInt8] { try PNGEncoder.encode(samplePicture(width: 12, height: 9)) }
func smallGIF() throws -> [UInt8] {
    let gray = GrayImage(try samplePicture(width: 12, height: 9))
    return GIFFile.gray(width: gray.width, height: gray.height, pixels: gray.pixels, interlaced: true).bytes
}
func smallBMP() throws -> [UInt8] {
    let picture = try samplePicture(width: 7, height: 5)
    return BMPFile.rgb(width: picture.width, height: picture.height, pixels: rgbSamples(picture)).bytes
}
/// RGB, LZW with horizontal differencing, in either byte order, classic or BigTIFF.
func smallTIFF(bigEndian: Bool = false, bigTIFF: Bool = false) throws -> [UInt8] {
    let picture = try samplePicture(width: 10, height: 7)
    var file = TIFFFile.rgbLZW(width: picture.width, height: picture.height, pixels: rgbSamples(picture), predictor: true)
    (file.bigEndian, file.bigTIFF) = (bigEndian, bigTIFF)
    return file.bytes
}
/// Black and white, CCITT Group 4.
func smallG4TIFF() throws -> [UInt8] {
    let gray = GrayImage(try samplePicture(width: 12, height: 9))
    return TIFFFile.bilevel(width: gray.width, height: gray.height, pixels: gray.pixels.map { $0 < 128 ? 1 : 0 }, coding: .group4).bytes
}
/// Three pages, each its own: RGB LZW turned right, CCITT Group 4, and gray strips, in either byte order,
/// classic or BigTIFF.
func smallMultiPageTIFF(bigEndian: Bool = false, bigTIFF: Bool = false) throws -> [UInt8] {
    let picture = try samplePicture(width: 10, height: 7), gray = GrayImage(try samplePicture(width: 12, height: 9))
    var rgb = TIFFFile.rgbLZW(width: picture.width, height: picture.height, pixels: rgbSamples(picture), predictor: true)
    rgb.set(TIFFFile.Field(274, [6]))
    let fax = TIFFFile.bilevel(width: 12, height: 9, pixels: gray.pixels.map { $0 < 128 ? 1 : 0 }, coding: .group4)
    let strips = TIFFFile.gray(width: 12, height: 9, pixels: gray.pixels.reversed(), rowsPerStrip: 4)
    return MultiPageTIFF([rgb, fax, strips], bigEndian: bigEndian, bigTIFF: bigTIFF).bytes
}
func smallJPEG(progressive: Bool = false) throws -> [UInt8] {
    try JPEGEncoder.encode(samplePicture(width: 24, height: 16), quality: 80, progressive: progressive)
}

/// Largest absolute difference between corresponding samples.
func maxDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
    zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 0
}

/// A fresh empty directory under the system temporary directory.
func makeTemporaryDirectory() throws -> String {
    let path = NSTemporaryDirectory() + "qrimage-tests-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}
