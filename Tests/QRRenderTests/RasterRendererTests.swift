import Testing
import QRCore
import QREncoder
import QRImage
import QRRender

@Suite("Raster rendering")
struct RasterRendererTests {
    @Test(arguments: [1, 2, 7])
    func blackOnWhiteIsOneBitGrayAndDecodesBackExactly(version: Int) throws {
        let code = try makeCode(version: version)
        let style = RenderStyle(sizing: .moduleSize(3), quietZone: 4)
        let png = try RasterRenderer.png(for: code, style: style)
        #expect(pngHeader(png) == (1, 0))
        let image = try ImageDecoder().decodeRGBA(png).image
        #expect(image.width == (code.size + 8) * 3 && image.height == image.width)
        #expect(mismatches(image, code: code, quietZone: 4, moduleSize: 3, dark: .black, light: .white) == 0)
        #expect(try RasterRenderer.image(for: code, style: style) == image)
    }

    @Test func twoOpaqueColoursUseAOneBitPalette() throws {
        let code = try makeCode()
        let style = RenderStyle(sizing: .moduleSize(2), quietZone: 2, foreground: try Color(parsing: "#8B0000"),
                                background: try Color(parsing: "#FFFFCC"))
        let png = try RasterRenderer.png(for: code, style: style)
        #expect(pngHeader(png) == (1, 3))
        #expect(!hasChunk(png, "tRNS"))
        let image = try ImageDecoder().decodeRGBA(png).image
        #expect(mismatches(image, code: code, quietZone: 2, moduleSize: 2, dark: RGBAPixel(red: 0x8B, green: 0, blue: 0),
                           light: RGBAPixel(red: 255, green: 255, blue: 0xCC)) == 0)
        // The reader's default gray conversion keeps the dark red dark.
        let gray = try ImageDecoder().decodeGray(png).image
        #expect(gray[0, 0] == 249 && gray.pixels.min() == 42)
    }

    @Test func alphaGoesIntoTRNS() throws {
        let code = try makeCode()
        let foreground = Color(red: 0, green: 0, blue: 0x80, alpha: 0x80)
        let style = RenderStyle(sizing: .moduleSize(1), quietZone: 4, foreground: foreground, background: .transparent)
        let png = try RasterRenderer.png(for: code, style: style)
        #expect(pngHeader(png) == (1, 3))
        #expect(hasChunk(png, "tRNS"))
        let image = try ImageDecoder().decodeRGBA(png).image
        #expect(mismatches(image, code: code, quietZone: 4, moduleSize: 1, dark: foreground.pixel, light: .clear) == 0)
    }

    @Test func translucentForegroundIsPaintedOverTheBackground() throws {
        let code = try makeCode()
        let style = RenderStyle(sizing: .moduleSize(1), foreground: Color(red: 0, green: 0, blue: 0, alpha: 128))
        let image = try ImageDecoder().decodeRGBA(try RasterRenderer.png(for: code, style: style)).image
        let gray = RGBAPixel(red: 127, green: 127, blue: 127)
        #expect(mismatches(image, code: code, quietZone: 4, moduleSize: 1, dark: gray, light: .white) == 0)
    }

    @Test func targetSizeNeverInterpolates() throws {
        let code = try makeCode()
        let image = try RasterRenderer.image(for: code, style: RenderStyle(sizing: .targetSize(100)))
        // 29 modules fit 3 times into 100 px: 87 px, every module a solid 3 × 3 square.
        #expect(image.width == 87)
        #expect(mismatches(image, code: code, quietZone: 4, moduleSize: 3, dark: .black, light: .white) == 0)
        #expect(Set(image.pixels).isSubset(of: [0, 255]))
    }

    @Test func oversizedOutputIsRefused() throws {
        let code = try makeCode(version: 40)
        #expect(throws: RenderError.imageTooLarge(side: 185 * 60, limit: 100_000_000)) {
            try RasterRenderer.png(for: code, style: RenderStyle(sizing: .moduleSize(60)))
        }
        #expect(throws: RenderError.self) {
            try RasterRenderer.png(for: code, style: RenderStyle(sizing: .moduleSize(Int.max / 2)))
        }
    }
}
