import Testing
import QRImage

@Suite("Resizing and geometric transforms")
struct ResamplingAndTransformTests {
    @Test func shrinkingAveragesAreas() throws {
        // 4×2 gray-as-RGBA → 2×1: each output pixel is the mean of a 2×2 block.
        let values: [UInt8] = [0, 100, 200, 255, 50, 150, 100, 55]
        let image = RGBAImage(try GrayImage(width: 4, height: 2, pixels: values))
        let small = try image.resized(width: 2, height: 1)
        #expect(small.pixels == [75, 75, 75, 255, 153, 153, 153, 255])
        // 3 → 2: output 0 covers source [0, 1.5): (p0 + p1 / 2) / 1.5.
        let three = RGBAImage(try GrayImage(width: 3, height: 1, pixels: [0, 90, 240]))
        #expect(try three.resized(width: 2, height: 1).pixels == [30, 30, 30, 255, 190, 190, 190, 255])
    }

    @Test func enlargingInterpolatesBilinearly() throws {
        let two = RGBAImage(try GrayImage(width: 2, height: 1, pixels: [0, 255]))
        let four = try two.resized(width: 4, height: 1)
        #expect(four.pixels.enumerated().filter { $0.offset % 4 == 0 }.map(\.element) == [0, 64, 191, 255])
        #expect(try two.resized(width: 2, height: 1) == two)
        #expect(throws: ImageError.self) { try two.resized(width: 0, height: 1) }
    }

    @Test func transparentPixelsDoNotDarkenEdges() throws {
        let image = try RGBAImage(width: 2, height: 1, pixels: [255, 0, 0, 255, 0, 0, 0, 0])
        #expect(try image.resized(width: 1, height: 1).pixels == [255, 0, 0, 128])
        #expect(try image.resized(width: 4, height: 1)[1, 0] == RGBAPixel(red: 255, green: 0, blue: 0, alpha: 191))
    }

    @Test func nearestNeighbourUpscaleRepeatsPixels() throws {
        let image = try GrayImage(width: 2, height: 1, pixels: [10, 20])
        let big = try image.upscaled(by: 3)
        #expect(big.width == 6 && big.height == 3)
        #expect(big.pixels == [UInt8]([10, 10, 10, 20, 20, 20] + [10, 10, 10, 20, 20, 20] + [10, 10, 10, 20, 20, 20]))
        #expect(try RGBAImage(image).upscaled(by: 2) == RGBAImage(try image.upscaled(by: 2)))
        #expect(throws: ImageError.self) { try image.upscaled(by: 0) }
        #expect(throws: ImageError.self) { try image.upscaled(by: Int.max) }
    }

    @Test func croppingClipsToTheImage() throws {
        let image = try GrayImage(width: 4, height: 3, pixels: (0..<12).map { UInt8($0) })
        #expect(try image.cropped(x: 1, y: 1, width: 2, height: 2).pixels == [5, 6, 9, 10])
        #expect(try image.cropped(x: -5, y: 2, width: 7, height: 100).pixels == [8, 9])
        #expect(throws: ImageError.self) { try image.cropped(x: 4, y: 0, width: 2, height: 2) }
        #expect(throws: ImageError.self) { try image.cropped(x: 0, y: 0, width: 0, height: 2) }
        #expect(throws: ImageError.self) { try image.cropped(x: Int.max, y: Int.max, width: Int.max, height: 1) }
        #expect(try RGBAImage(image).cropped(x: 3, y: 2, width: 9, height: 9).pixels == [11, 11, 11, 255])
    }

    @Test func rotationsAndFlips() throws {
        // 1 2 3
        // 4 5 6
        let image = try GrayImage(width: 3, height: 2, pixels: [1, 2, 3, 4, 5, 6])
        let quarter = image.rotated(.clockwise90)
        #expect(quarter.width == 2 && quarter.height == 3)
        #expect(quarter.pixels == [4, 1, 5, 2, 6, 3])
        #expect(image.rotated(.clockwise180).pixels == [6, 5, 4, 3, 2, 1])
        #expect(image.rotated(.clockwise270).pixels == [3, 6, 2, 5, 1, 4])
        #expect(image.flippedHorizontally().pixels == [3, 2, 1, 6, 5, 4])
        #expect(image.flippedVertically().pixels == [4, 5, 6, 1, 2, 3])
        #expect(quarter.rotated(.clockwise90).rotated(.clockwise180) == image)
        let colour = RGBAImage(image)
        #expect(colour.rotated(.clockwise90) == RGBAImage(quarter))
        #expect(colour.flippedVertically().flippedHorizontally() == RGBAImage(image.rotated(.clockwise180)))
    }

    @Test func integerDownscaleAveragesBlocks() throws {
        let image = try GrayImage(width: 5, height: 3, pixels: [
            0, 10, 20, 30, 40,
            50, 60, 70, 80, 90,
            100, 110, 120, 130, 140,
        ])
        let half = try image.downscaled(by: 2)
        #expect(half.width == 3 && half.height == 2)
        // Edge blocks average only the pixels they hold.
        #expect(half.pixels == [30, 50, 65, 105, 125, 140])
        #expect(try image.downscaled(by: 1) == image)
        #expect(try image.downscaled(by: 10).pixels == [70])
        #expect(try image.downscaled(by: .max) == image.downscaled(by: 10))
        #expect(throws: ImageError.self) { try image.downscaled(by: 0) }
    }
}
