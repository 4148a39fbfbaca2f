import Testing
import QRTestSupport
import QRCore
import QRImage

/// An APP1 segment (marker included) holding an Exif TIFF structure whose IFD0 has the orientation tag.
private func exifSegment(orientation: Int, bigEndian: Bool, type: Int = 3) -> [UInt8] {
    func u16(_ v: Int) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 255)] : [UInt8(v & 255), UInt8(v >> 8)] }
    func u32(_ v: Int) -> [UInt8] { bigEndian ? u16(v >> 16) + u16(v & 0xFFFF) : u16(v & 0xFFFF) + u16(v >> 16) }
    var tiff: [UInt8] = bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]
    tiff += u16(42) + u32(8)
    // IFD0 with two entries: an unrelated tag (ImageWidth) and the orientation.
    tiff += u16(2)
    tiff += u16(0x0100) + u16(4) + u32(1) + u32(640)
    let value = type == 3 ? u16(orientation) + [0, 0] : u32(orientation)
    tiff += u16(0x0112) + u16(type) + u32(1) + value
    tiff += u32(0)
    let payload = Array("Exif".utf8) + [0, 0] + tiff
    return [0xFF, 0xE1, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 255)] + payload
}

/// `jpeg` with `segment` inserted right after SOI.
private func inserting(_ segment: [UInt8], into jpeg: [UInt8]) -> [UInt8] {
    Array(jpeg[0..<2]) + segment + Array(jpeg[2...])
}

@Suite("Exif orientation")
struct ExifOrientationTests {
    @Test(arguments: ExifOrientation.allCases)
    func orientationIsReadInBothByteOrders(orientation: ExifOrientation) throws {
        let jpeg = try smallJPEG()
        for bigEndian in [false, true] {
            let tagged = inserting(exifSegment(orientation: orientation.rawValue, bigEndian: bigEndian), into: jpeg)
            let decoded = try ImageDecoder().decodeGray(tagged)
            #expect(decoded.orientation == orientation)
            // The pixels stay in the stored frame.
            #expect(decoded.image.width == 24 && decoded.image.height == 16)
            #expect(decoded.image == (try ImageDecoder().decodeGray(jpeg).image))
        }
    }

    @Test func longValuesAndAPP0BeforeExifAreAccepted() throws {
        let app0: [UInt8] = [0xFF, 0xE0, 0x00, 0x04, 0x00, 0x00]
        let jpeg = inserting(app0 + exifSegment(orientation: 8, bigEndian: true, type: 4), into: try smallJPEG())
        #expect(try ImageDecoder().decodeRGBA(jpeg).orientation == .left)
    }

    @Test func malformedExifMeansUpright() throws {
        let jpeg = try smallJPEG()
        var outOfRange = exifSegment(orientation: 9, bigEndian: false)
        var badOrder = exifSegment(orientation: 6, bigEndian: false)
        badOrder[10] = 0x41
        // An entry count far beyond the data, and no orientation among the entries that exist.
        var hugeCount = exifSegment(orientation: 6, bigEndian: false)
        hugeCount[18...19] = [0xFF, 0xFF]
        hugeCount[32...33] = [0x13, 0x01]
        var badOffset = exifSegment(orientation: 6, bigEndian: true)
        badOffset[14...17] = [0x7F, 0xFF, 0xFF, 0xFF]
        var cutShort = exifSegment(orientation: 6, bigEndian: false)
        cutShort.removeLast(12)
        cutShort[3] -= 12
        for segment in [outOfRange, badOrder, hugeCount, badOffset, cutShort] {
            #expect(try ImageDecoder().decodeGray(inserting(segment, into: jpeg)).orientation == .up)
        }
        // A segment length running past the end of the file is caught by libjpeg, not the Exif reader.
        outOfRange[2] = 0x7F
        #expect(throws: ImageError.self) { try ImageDecoder().decodeGray(inserting(outOfRange, into: jpeg)) }
    }

    @Test(arguments: ExifOrientation.allCases)
    func pointMappingRoundTrips(orientation: ExifOrientation) {
        let width = 40, height = 30
        var random = SeededGenerator(seed: UInt64(orientation.rawValue))
        let size = orientation.orientedSize(width: width, height: height)
        for _ in 0..<50 {
            let p = Point(Double.random(in: 0...40, using: &random), Double.random(in: 0...30, using: &random))
            let shown = orientation.displayPoint(fromStored: p, storedWidth: width, storedHeight: height)
            #expect((0...Double(size.width)).contains(shown.x) && (0...Double(size.height)).contains(shown.y))
            let back = orientation.storedPoint(fromDisplay: shown, storedWidth: width, storedHeight: height)
            #expect(abs(back.x - p.x) < 1e-9 && abs(back.y - p.y) < 1e-9)
        }
    }

    @Test func orientationSixTurnsTheTopLeftCornerToTheTopRight() {
        // A portrait phone photo: stored landscape 40×30, displayed 30×40 after turning clockwise.
        let o = ExifOrientation.right
        #expect(o.orientedSize(width: 40, height: 30) == (30, 40))
        #expect(o.displayPoint(fromStored: Point(0, 0), storedWidth: 40, storedHeight: 30) == Point(30, 0))
        #expect(o.displayPoint(fromStored: Point(0.5, 0.5), storedWidth: 40, storedHeight: 30) == Point(29.5, 0.5))
        #expect(o.displayPoint(fromStored: Point(40, 30), storedWidth: 40, storedHeight: 30) == Point(0, 40))
        #expect(ExifOrientation.left.displayPoint(fromStored: Point(0, 0), storedWidth: 40, storedHeight: 30) == Point(0, 40))
    }

    @Test(arguments: ExifOrientation.allCases)
    func applyingMovesPixelsWherePointsGo(orientation: ExifOrientation) throws {
        let width = 5, height = 3
        let stored = try GrayImage(width: width, height: height, pixels: (0..<15).map { UInt8($0) })
        let shown = orientation.apply(to: stored)
        let size = orientation.orientedSize(width: width, height: height)
        #expect(shown.width == size.width && shown.height == size.height)
        for y in 0..<height {
            for x in 0..<width {
                let centre = orientation.displayPoint(fromStored: Point(Double(x) + 0.5, Double(y) + 0.5),
                                                      storedWidth: width, storedHeight: height)
                #expect(shown[Int(centre.x), Int(centre.y)] == stored[x, y])
            }
        }
        let colour = orientation.apply(to: RGBAImage(stored))
        #expect(colour == RGBAImage(shown))
    }
}
