import Testing
import QRImage

@Suite("Pixel images and gray conversion")
struct PixelImageTests {
    @Test func initialisersValidateSizes() throws {
        #expect(throws: ImageError.self) { try GrayImage(width: 2, height: 2, pixels: [0, 0, 0]) }
        #expect(throws: ImageError.self) { try RGBAImage(width: 1, height: 1, pixels: [0, 0, 0]) }
        #expect(throws: ImageError.self) { try GrayImage(width: 0, height: 5) }
        #expect(throws: ImageError.self) { try RGBAImage(width: -1, height: 5) }
        #expect(throws: ImageError.self) { try GrayImage(width: Int.max, height: 2) }
        // Sizes that would not overflow but could not be allocated are refused before allocating.
        #expect(throws: ImageError.tooLarge(width: 1 << 20, height: 1 << 20, limit: 1 << 32)) { try GrayImage(width: 1 << 20, height: 1 << 20) }
        #expect(throws: ImageError.tooLarge(width: 1 << 30, height: 1 << 30, limit: 1 << 30)) { try RGBAImage(width: 1 << 30, height: 1 << 30) }
        #expect(throws: ImageError.self) { try IndexedImage(width: 1, height: 1, indices: [2], palette: [.black, .white]) }
        #expect(throws: ImageError.self) { try IndexedImage(width: 1, height: 1, indices: [0], palette: []) }
        let gray = try GrayImage(width: 3, height: 2, value: 7)
        #expect(gray.pixels == [UInt8](repeating: 7, count: 6))
    }

    @Test func subscriptsAddressRowMajorPixels() throws {
        var gray = try GrayImage(width: 3, height: 2)
        gray[2, 1] = 9
        #expect(gray.pixels == [255, 255, 255, 255, 255, 9])
        var rgba = try RGBAImage(width: 2, height: 2, color: .white)
        rgba[1, 0] = RGBAPixel(red: 1, green: 2, blue: 3, alpha: 4)
        #expect(Array(rgba.pixels[4..<8]) == [1, 2, 3, 4])
        #expect(rgba[1, 0] == RGBAPixel(red: 1, green: 2, blue: 3, alpha: 4))
        #expect(!rgba.isOpaque)
    }

    @Test func luminanceKeepsDarkColoursDark() {
        // BT.601 integer weights: dark red stays clearly dark for the reader.
        #expect(GrayConversion.luminance.gray(red: 0x8B, green: 0, blue: 0) == 42)
        #expect(GrayConversion.luminance.gray(red: 255, green: 255, blue: 255) == 255)
        #expect(GrayConversion.luminance.gray(red: 0, green: 0, blue: 0) == 0)
        #expect(GrayConversion.luminance.gray(red: 255, green: 255, blue: 0) == 226)
    }

    @Test func darkestChannelGivesLightColoursContrast() {
        // Yellow on white is nearly invisible in luminance but black in the darkest channel.
        #expect(GrayConversion.darkestChannel.gray(red: 255, green: 255, blue: 0) == 0)
        #expect(GrayConversion.darkestChannel.gray(red: 0, green: 255, blue: 255) == 0)
        #expect(GrayConversion.darkestChannel.gray(red: 255, green: 255, blue: 255) == 255)
        #expect(GrayConversion.darkestChannel.gray(red: 0x8B, green: 0, blue: 0) == 0)
    }

    @Test func grayFromColourCompositesOntoWhite() throws {
        let rgba = try RGBAImage(width: 4, height: 1, pixels: [
            0, 0, 0, 255,  // black
            0, 0, 0, 128,  // half-transparent black → mid gray
            0, 0, 0, 0,  // transparent → white
            255, 255, 0, 255,  // yellow
        ])
        #expect(GrayImage(rgba).pixels == [0, 127, 255, 226])
        #expect(GrayImage(rgba, conversion: .darkestChannel).pixels == [0, 127, 255, 0])
        #expect(RGBAImage(try GrayImage(width: 1, height: 1, value: 9)).pixels == [9, 9, 9, 255])
    }

    @Test func compositingIsSourceOver() {
        let halfRed = RGBAPixel(red: 255, green: 0, blue: 0, alpha: 128)
        #expect(halfRed.composited(over: .white) == RGBAPixel(red: 255, green: 127, blue: 127, alpha: 255))
        #expect(halfRed.composited(over: .clear) == halfRed)
        #expect(RGBAPixel.clear.composited(over: .white) == .white)
        #expect(RGBAPixel.black.composited(over: .white) == .black)
        let onHalf = halfRed.composited(over: RGBAPixel(red: 0, green: 0, blue: 255, alpha: 128))
        #expect(onHalf.alpha == 192)
        #expect(onHalf.red == 170 && onHalf.blue == 85)
    }

    @Test func indexedImagesQuantizeExactly() throws {
        let rgba = try RGBAImage(width: 4, height: 1, pixels: [
            255, 0, 0, 255, 0, 0, 255, 255, 9, 9, 9, 0, 7, 7, 7, 0,  // two invisible colours become one entry
        ])
        let indexed = try #require(IndexedImage(rgba))
        #expect(indexed.palette.count == 3)
        #expect(indexed.palette[0] == .clear)  // translucent entries first, for a short tRNS chunk
        #expect(indexed.bitDepth == 2)
        #expect(indexed.rgbaImage.pixels == [255, 0, 0, 255, 0, 0, 255, 255, 0, 0, 0, 0, 0, 0, 0, 0])
        #expect(IndexedImage(rgba, maxColors: 2) == nil)

        var many: [UInt8] = []
        for i in 0..<300 { many += [UInt8(i % 256), UInt8(i / 256), 0, 255] }
        #expect(IndexedImage(try RGBAImage(width: 300, height: 1, pixels: many)) == nil)
    }
}
