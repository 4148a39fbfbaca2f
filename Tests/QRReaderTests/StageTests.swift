import Foundation
import QRCore
import QRImage
@testable import QREncoder
import QRTestSupport
import Testing
@testable import QRReader

/// A plane from a synthetic scene.
func plane(_ scene: SyntheticScene) -> LuminancePlane {
    LuminancePlane(width: scene.width, height: scene.height, pixels: scene.pixels)
}

/// `code` drawn with its top-left module at (30, 30) and a 16-level contrast over a background of 150,
/// darkened towards the right to 70 % (haze or glare over a printed code), with sensor noise.
func lowContrastScene(_ code: QRCode, width: Int, moduleSize: Double) -> SyntheticScene {
    var scene = SyntheticScene(width: width, height: width, background: 150)
    let side = Double(code.size) * moduleSize
    scene.place(code.modules, corners: [Point(30, 30), Point(30 + side, 30), Point(30 + side, 30 + side), Point(30, 30 + side)],
                dark: 134, light: 150)
    scene.addShadow(factor: 0.7)
    scene.addNoise(amplitude: 3, seed: 5)
    return scene
}

/// `code` at 3 px per module in a dim picture (background 30, paper 60, ink 10) with highlights at its quiet
/// zone's edge: a white stroke 2 modules wide along its left side and a lamp's reflection, a white disc about 5
/// modules across, on its top-left corner.
func dimSceneWithHighlights(_ code: QRCode) -> SyntheticScene {
    let side = Double(code.size + 30) * 3, origin = 45.0, end = origin + Double(code.size) * 3
    var scene = SyntheticScene(width: Int(side), height: Int(side), background: 30)
    scene.place(code.modules, corners: [Point(origin, origin), Point(end, origin), Point(end, end), Point(origin, end)],
                dark: 10, light: 60)
    let quietZone = origin - 12
    scene.fill(Rect(x: quietZone - 6, y: quietZone, width: 6, height: end + 12 - quietZone), level: 255)
    scene.addBrightSpot(center: Point(quietZone, quietZone), radius: 4, strength: 1_500)
    return scene
}

@Suite("Binarization")
struct BinarizationTests {
    /// A version 2 code of `text` turned by 20° under a shadow and noise: flat areas, edges and texture.
    private func turnedShadedNoisyScene(_ text: String) throws -> SyntheticScene {
        let code = try QRCode.encode(text, options: .version(2))
        var scene = SyntheticScene(width: 203, height: 157)
        scene.place(code.modules, center: Point(100, 78), moduleSize: 4.3, degrees: 20)
        scene.addShadow(factor: 0.5)
        scene.addNoise(amplitude: 12, seed: 3)
        return scene
    }

    @Test func blockThresholdFollowsAStrongShadow() throws {
        // Modules of a known symbol under light falling from 100 % to 30 % across the picture.
        let code = try QRCode.encode("shadow", options: .version(2))
        var scene = SyntheticScene(width: 260, height: 260)
        scene.place(code.modules, center: Point(130, 130), moduleSize: 8)
        scene.addShadow(factor: 0.3)
        let binary = BlockBinarizer.binarize(plane(scene))
        var wrong = 0
        for y in 0..<code.size {
            for x in 0..<code.size {
                let px = 130 - 100 + x * 8 + 4, py = 130 - 100 + y * 8 + 4
                if binary.isDark(px, py) != code.modules[x, y] { wrong += 1 }
            }
        }
        #expect(wrong == 0)
        // A single global threshold cannot follow it.
        let global = GlobalBinarizer.binarize(plane(scene))
        #expect(global.pixels != binary.pixels)
    }

    @Test func highlightsBesideACodeAreLoweredToThePicturesOrdinaryLevel() throws {
        let code = try QRCode.encode("BRIGHT SPOT TEST 12345", options: .version(2))
        let dim = plane(dimSceneWithHighlights(code))
        let ceiling = try #require(LuminanceSurvey(dim).highlightCeiling { _ in false })
        #expect((60..<80).contains(ceiling), "about the code's paper")
        let clipped = dim.clipped(at: ceiling)
        #expect(clipped.pixels.max() == ceiling)
        #expect(zip(dim.pixels, clipped.pixels).allSatisfy { $0 == $1 || $0 > ceiling })
        // Highlights the codes found account for (their paper and light modules) are no spots.
        #expect(LuminanceSurvey(dim).highlightCeiling { _ in true } == nil)
        // Nor is the white paper of a code in a bright picture, nor a picture in two levels, which keeps
        // nothing between them.
        var paper = SyntheticScene(width: 200, height: 200, background: 255)
        paper.place(code.modules, center: Point(100, 100), moduleSize: 4, dark: 20, light: 255)
        #expect(LuminanceSurvey(plane(paper)).highlightCeiling { _ in false } == nil)
        var twoLevels = SyntheticScene(width: 200, height: 200, background: 0)
        twoLevels.fill(Rect(x: 20, y: 20, width: 20, height: 20), level: 255)
        #expect(LuminanceSurvey(plane(twoLevels)).highlightCeiling { _ in false } == nil)
    }

    /// The survey's percentiles are those of its grid's pixels, and a picture has low contrast when they lie under
    /// a quarter of the grey scale apart, whatever its brightness; its negative spans the same.
    @Test func aPictureSpanningUnderAQuarterOfTheGreyScaleHasLowContrast() throws {
        // Levels 100...163, each in one column of 4 px: every level lies on the grid as often.
        let ramp = LuminancePlane(width: 256, height: 64, pixels: (0..<(256 * 64)).map { UInt8(100 + $0 % 256 / 4) })
        let survey = LuminanceSurvey(ramp)
        #expect(survey.step == 4 && survey.total == 64 * 16)
        let (first, last) = try #require(survey.percentiles())
        #expect(first == 100 && last == 163)
        #expect(try #require(survey.percentiles(below: 132)) == (100, 131))
        #expect(survey.percentiles(below: 100) == nil)
        #expect(survey.hasLowContrast && LuminanceSurvey(ramp.inverted()).hasLowContrast)
        var code = SyntheticScene(width: 200, height: 200)
        code.place(try QRCode.encode("contrast").modules, center: Point(100, 100), moduleSize: 5)
        #expect(!LuminanceSurvey(plane(code)).hasLowContrast)
        let faint = SyntheticScene(width: 200, height: 200, background: 30)
        #expect(LuminanceSurvey(plane(faint)).hasLowContrast)
    }

    /// A picture is dim when its percentiles lie under three-eighths of the grey scale apart: a wider span than low
    /// contrast takes.
    @Test func aPictureSpanningUnderThreeEighthsOfTheGreyScaleIsDim() {
        /// Levels 100..<(100 + span), each in one column of 4 px.
        func ramp(spanning span: Int) -> LuminanceSurvey {
            LuminanceSurvey(LuminancePlane(width: 4 * span, height: 64, pixels: (0..<(4 * span * 64)).map { UInt8(100 + $0 % (4 * span) / 4) }))
        }
        #expect(ramp(spanning: 90).isDim && !ramp(spanning: 90).hasLowContrast)
        #expect(!ramp(spanning: 110).isDim)
        #expect(ramp(spanning: 50).isDim && ramp(spanning: 50).hasLowContrast)
    }

    @Test func globalThresholdSitsBetweenTheTwoPeaks() throws {
        var pixels = [UInt8](repeating: 40, count: 100 * 100)
        for i in stride(from: 0, to: pixels.count, by: 3) { pixels[i] = 210 }
        let threshold = GlobalBinarizer.threshold(LuminancePlane(width: 100, height: 100, pixels: pixels))
        #expect(threshold > 40 && threshold < 210)
    }

    @Test func anInvertedPlaneReadsAsThePlaneOfItsNegativePixels() throws {
        // A light-on-dark code (flat areas, edges, a shadow, noise): its negative, which shares the stored
        // pixels, must binarize, sample and downscale exactly as a plane holding the negated pixels.
        let scene = try turnedShadedNoisyScene("negative")
        let lightOnDark = LuminancePlane(width: scene.width, height: scene.height, pixels: scene.pixels.map { 255 - $0 })
        let view = lightOnDark.inverted(), negative = plane(scene)
        #expect(BlockBinarizer.binarize(view).pixels == BlockBinarizer.binarize(negative).pixels)
        #expect(GlobalBinarizer.binarize(view).pixels == GlobalBinarizer.binarize(negative).pixels)
        #expect(view.downscaled(by: 3).pixels == negative.downscaled(by: 3).pixels)
        for (x, y) in [(0.2, 0.7), (100.25, 80.5), (150.6, 40.1), (202.9, 156.9)] {
            #expect(view.sample(x, y) == negative.sample(x, y))
        }
        // Inverted twice, it is the stored picture again.
        #expect(BlockBinarizer.binarize(view.inverted()).pixels == BlockBinarizer.binarize(lightOnDark).pixels)
    }

    @Test func aBinaryImageWrittenIntoRecycledStorageIsTheSameImage() throws {
        let scene = try turnedShadedNoisyScene("recycled")
        let picture = plane(scene), recycler = BitRecycler()
        let count = BinaryImage.wordsPerRow(width: scene.width) * scene.height
        /// Leaves the recycler storage of `count` words, every bit set, the padding past each row's width too:
        /// every word of the next image must be written.
        func recycleDarkStorage(count: Int) {
            recycler.recycle(BinaryImage(width: 64 * count, height: 1, reusing: nil) { words in
                for i in words.indices { words[i] = ~0 }
            })
        }
        let binarizers: [(BitRecycler?) -> BinaryImage] = [
            { BlockBinarizer.binarize(picture, reusing: $0) },
            { BlockBinarizer.binarize(picture, flatBlocks: .lowContrast, reusing: $0) },
            { BlockBinarizer.binarizeAtMidrange(picture, reusing: $0) },
            { GlobalBinarizer.binarize(picture, reusing: $0) },
        ]
        for binarize in binarizers {
            recycleDarkStorage(count: count)
            let reused = binarize(recycler)
            #expect(reused.pixels == binarize(nil).pixels)
            #expect(reused.isIdentical(to: binarize(nil)))
            #expect(recycler.take(count: count) == nil)
        }
        // Storage of another size is kept for an image of its size, not used.
        recycleDarkStorage(count: count)
        let smaller = picture.downscaled(by: 2)
        #expect(BlockBinarizer.binarize(smaller, reusing: recycler).pixels == BlockBinarizer.binarize(smaller).pixels)
        #expect(recycler.take(count: count) != nil)
        #expect(recycler.take(count: count) == nil)
    }

    @Test func theLowContrastRuleThresholdsWhatTheUsualRuleTakesForFlat() throws {
        // A code 16 grey levels darker than its surround, in light fading across it: every block is
        // within the usual flat-block contrast, and only blocks flat to within noise are set aside.
        // Thresholded, as in the reader's low-contrast pass, at half size, where 8-pixel modules are 4.
        let code = try QRCode.encode("haze", options: .version(2))
        let level = plane(lowContrastScene(code, width: 260, moduleSize: 8)).downscaled(by: 2)
        func wrongModules(_ binary: BinaryImage) -> Int {
            var wrong = 0
            for y in 0..<code.size {
                for x in 0..<code.size where binary.isDark(15 + x * 4 + 2, 15 + y * 4 + 2) != code.modules[x, y] { wrong += 1 }
            }
            return wrong
        }
        #expect(wrongModules(BlockBinarizer.binarize(level)) > code.size * code.size / 4)
        #expect(wrongModules(BlockBinarizer.binarize(level, flatBlocks: .lowContrast)) == 0)
    }

    /// `code` at `moduleSize` px per module in light grey (`dark` on 235), blurred: rings of light-grey
    /// modules beside flat areas, as a coloured code photographed out of focus.
    private func blurredLightGreyScene(_ code: QRCode, moduleSize: Double = 4, dark: UInt8 = 160) -> SyntheticScene {
        var scene = SyntheticScene(width: 240, height: 240, background: 235)
        let side = Double(code.size) * moduleSize, origin = 120 - side / 2
        let (near, far) = (origin, origin + side)
        scene.place(code.modules, corners: [Point(near, near), Point(far, near), Point(far, far), Point(near, far)], dark: dark, light: 235)
        scene.blur(radius: 2, passes: 2)
        return scene
    }

    @Test func theMidrangeRuleKeepsTheLightGreyRingsTheMeanRuleBreaks() throws {
        // The quiet zone's flat blocks, made light with half their darkest pixel, pull the mean rule's
        // thresholds around the finders' rings below their grey: no finder pattern shows. Nor does one under
        // the global threshold. At the middle of each block's contrast all three do.
        let scene = blurredLightGreyScene(try QRCode.encode("grey ring", options: .version(2)))
        func patterns(_ binary: BinaryImage) -> Int {
            FinderPatternFinder.find(in: binary, rowStep: 1).filter { !$0.isDamaged }.count
        }
        #expect(patterns(BlockBinarizer.binarize(plane(scene))) == 0)
        #expect(patterns(GlobalBinarizer.binarize(plane(scene))) == 0)
        #expect(patterns(BlockBinarizer.binarizeAtMidrange(plane(scene))) == 3)
    }

    @Test(arguments: [(4.0, UInt8(160)), (5.0, UInt8(165))])
    func aBlurredLightGreyCodeReads(moduleSize: Double, dark: UInt8) throws {
        // Read by the midrange pass (neither reads without it).
        let scene = blurredLightGreyScene(try QRCode.encode("grey ring", options: .version(2)), moduleSize: moduleSize, dark: dark)
        #expect(QRCodeReader().read(luminance: scene.pixels, width: scene.width, height: scene.height).map(\.text) == ["grey ring"])
    }

    @Test func theMidrangeRuleThresholdsAFlatPictureGlobally() {
        // No block has contrast enough to be thresholded at its middle: the whole picture gets one threshold.
        let pixels = (0..<(64 * 48)).map { (i: Int) -> UInt8 in UInt8(100 + i % 64 / 8) }
        let flat = LuminancePlane(width: 64, height: 48, pixels: pixels)
        #expect(BlockBinarizer.binarizeAtMidrange(flat).pixels == GlobalBinarizer.binarize(flat).pixels)
    }

    @Test(arguments: [(40, 40), (47, 61), (64, 45), (203, 157)])
    func midrangeThresholdsMatchTheirRuleComputedPixelByPixel(size: (width: Int, height: Int)) {
        let (width, height) = size
        let pattern = testPattern(width: width, height: height)
        // Also flat but for a corner, where most blocks have no threshold around them and take the next one's.
        let corner = LuminancePlane(width: width, height: height, pixels: pattern.pixels.indices.map { i in
            i % width > width * 2 / 3 && i / width > height / 2 ? pattern.pixels[i] : 180
        })
        for plane in [pattern, pattern.inverted(), corner] {
            #expect(BlockBinarizer.binarizeAtMidrange(plane).pixels == referenceMidrangeThresholds(plane))
        }
    }

    /// ``BlockBinarizer/binarizeAtMidrange(_:)``'s rule, one block at a time: each 8 × 8 block (the last of a
    /// row or column moved back inside the image) with more than 24 levels of contrast has a threshold, the
    /// middle of its darkest and lightest pixel; each block is thresholded at the mean of those of the 5 × 5
    /// blocks around it (moved inside the grid at its edges), its own counted thrice, or with none there at
    /// the next block's in reading order that has one (the last blocks at the last one).
    private func referenceMidrangeThresholds(_ plane: LuminancePlane) -> [UInt8] {
        let width = plane.width, height = plane.height, size = BlockBinarizer.blockSize
        let blocksX = (width + size - 1) / size, blocksY = (height + size - 1) / size
        func pixel(_ x: Int, _ y: Int) -> Int { Int(plane.pixels[y * width + x] ^ plane.inversion) }
        func origin(_ bx: Int, _ by: Int) -> (Int, Int) { (min(bx * size, width - size), min(by * size, height - size)) }
        var middles = [Int?](repeating: nil, count: blocksX * blocksY)
        for by in 0..<blocksY {
            for bx in 0..<blocksX {
                let (left, top) = origin(bx, by)
                let values = (0..<(size * size)).map { pixel(left + $0 % size, top + $0 / size) }
                let minimum = values.min() ?? 0, maximum = values.max() ?? 0
                if maximum - minimum > 24 { middles[by * blocksX + bx] = (minimum + maximum) / 2 }
            }
        }
        var thresholds = [Int?](repeating: nil, count: blocksX * blocksY)
        for by in 0..<blocksY {
            for bx in 0..<blocksX {
                let cx = min(max(bx, 2), blocksX - 3), cy = min(max(by, 2), blocksY - 3)
                var known = [Int]()
                for dy in -2...2 { for dx in -2...2 { if let m = middles[(cy + dy) * blocksX + cx + dx] { known.append(m) } } }
                if let own = middles[by * blocksX + bx] { known += [own, own] }
                if !known.isEmpty { thresholds[by * blocksX + bx] = known.reduce(0, +) / known.count }
            }
        }
        let last = thresholds.last { $0 != nil }.flatMap { $0 } ?? 0
        let filled = thresholds.indices.map { i in thresholds[i...].lazy.compactMap { $0 }.first ?? last }
        var bits = [UInt8](repeating: 0, count: width * height)
        for by in 0..<blocksY {
            for bx in 0..<blocksX {
                let (left, top) = origin(bx, by)
                for y in top..<(top + size) {
                    for x in left..<(left + size) { bits[y * width + x] = pixel(x, y) <= filled[by * blocksX + bx] ? 1 : 0 }
                }
            }
        }
        return bits
    }

    /// Flat areas of several levels, edges and noise, in a size that may leave a partial last block (which
    /// overlaps the one before) and an odd block left over from the vectorised pairs.
    private func testPattern(width: Int, height: Int) -> LuminancePlane {
        var seed: UInt64 = 42
        let pixels = (0..<(width * height)).map { i -> UInt8 in
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let x = i % width, y = i / width
            let base = (x / 11 + y / 7) % 3 == 0 ? 60 : ((x / 13) % 2 == 0 ? 200 : 180)
            return UInt8(clamping: base + Int(seed >> 60) - (x * y % 29 == 0 ? 40 : 0))
        }
        return LuminancePlane(width: width, height: height, pixels: pixels)
    }

    @Test(arguments: [(40, 40), (47, 61), (64, 45), (203, 157)], [BlockBinarizer.FlatBlocks.usual, .lowContrast])
    func blockThresholdsMatchTheirRuleComputedPixelByPixel(size: (width: Int, height: Int), flatBlocks: BlockBinarizer.FlatBlocks) {
        let (width, height) = size
        for plane in [testPattern(width: width, height: height), testPattern(width: width, height: height).inverted()] {
            #expect(BlockBinarizer.binarize(plane, flatBlocks: flatBlocks).pixels == referenceBlockThresholds(plane, flatBlocks))
        }
    }

    /// ``BlockBinarizer``'s rule, one pixel at a time: each 8 × 8 block (the last of a row or column moved
    /// back inside the image) gets a black point, its mean, or for a flat block a light one unless its
    /// neighbours above and to the left are darker; a pixel is dark when at or below the mean black point
    /// of the 5 × 5 blocks around its own (moved inside the grid at its edges).
    private func referenceBlockThresholds(_ plane: LuminancePlane, _ flatBlocks: BlockBinarizer.FlatBlocks) -> [UInt8] {
        let width = plane.width, height = plane.height, size = BlockBinarizer.blockSize
        let blocksX = (width + size - 1) / size, blocksY = (height + size - 1) / size
        func pixel(_ x: Int, _ y: Int) -> Int { Int(plane.pixels[y * width + x] ^ plane.inversion) }
        func origin(_ bx: Int, _ by: Int) -> (Int, Int) { (min(bx * size, width - size), min(by * size, height - size)) }
        var points = [Int](repeating: 0, count: blocksX * blocksY)
        for by in 0..<blocksY {
            for bx in 0..<blocksX {
                let (left, top) = origin(bx, by)
                let values = (0..<(size * size)).map { pixel(left + $0 % size, top + $0 / size) }
                let minimum = values.min() ?? 0, maximum = values.max() ?? 0
                var point = values.reduce(0, +) / (size * size)
                if maximum - minimum <= flatBlocks.maximumContrast {
                    point = flatBlocks.lightBlackPoint(darkest: minimum)
                    if by > 0 && bx > 0 {
                        let neighbours = (points[(by - 1) * blocksX + bx] + 2 * points[by * blocksX + bx - 1]
                            + points[(by - 1) * blocksX + bx - 1]) / 4
                        if minimum < neighbours { point = neighbours }
                    }
                }
                points[by * blocksX + bx] = point
            }
        }
        var bits = [UInt8](repeating: 0, count: width * height)
        for by in 0..<blocksY {
            for bx in 0..<blocksX {
                let cx = min(max(bx, 2), blocksX - 3), cy = min(max(by, 2), blocksY - 3)
                var sum = 0
                for dy in -2...2 { for dx in -2...2 { sum += points[(cy + dy) * blocksX + cx + dx] } }
                let (left, top) = origin(bx, by)
                for y in top..<(top + size) {
                    for x in left..<(left + size) { bits[y * width + x] = pixel(x, y) <= Int(UInt8(clamping: sum / 25)) ? 1 : 0 }
                }
            }
        }
        return bits
    }

    @Test(arguments: [1, 63, 64, 65, 130, 200])
    func binaryImagesKeepEveryPixelAndFindRunEndsAcrossWords(width: Int) {
        var random = SeededGenerator(seed: UInt64(width))
        let height = 3
        // Runs of 1 to 80 pixels, so that some end inside a word and some span several.
        var pixels: [UInt8] = []
        var color: UInt8 = 0
        while pixels.count < width * height {
            pixels += [UInt8](repeating: color, count: Int.random(in: 1...80, using: &random))
            color ^= 1
        }
        pixels = Array(pixels.prefix(width * height))
        let image = BinaryImage(width: width, height: height, pixels: pixels)
        #expect(image.pixels == pixels)
        image.withBits { bits in
            for y in 0..<height {
                let row = y * image.rowBits
                for x in 0..<width {
                    #expect(bits[row + x] == UInt64(pixels[y * width + x]))
                    #expect(image.isDark(x, y) == (pixels[y * width + x] == 1))
                    for end in Set([width, min(width, x + 1), min(width, x + 70)]) {
                        for color in [0, 1] as [UInt64] {
                            var naive = x
                            while naive < end && UInt64(pixels[y * width + naive]) == color { naive += 1 }
                            #expect(bits.runEnd(from: row + x, to: row + end, color: color) == row + naive)
                        }
                    }
                }
            }
        }
    }

    @Test func sixteenPixelsPackIntoSixteenBitsInOrder() {
        for pattern in [0, 1, 0x8000, 0xFFFF, 0xA5C3, 0x0F0F, 0x1234] {
            let lanes = SIMD16<UInt8>((0..<16).map { UInt8(pattern >> $0 & 1) })
            #expect(BinaryImage.packed(lanes) == UInt64(pattern))
        }
    }

    @Test func binaryImagesAreIdenticalOnlyWithTheSameSizeAndEveryPixel() {
        // 37 × 3 pixels: a word per row, 27 bits of each past the width.
        let bits = (0..<111).map { UInt8($0 * 7 % 3 == 0 ? 1 : 0) }
        let image = BinaryImage(width: 37, height: 3, pixels: bits)
        #expect(image.isIdentical(to: BinaryImage(width: 37, height: 3, pixels: bits)))
        #expect(!image.isIdentical(to: BinaryImage(width: 3, height: 37, pixels: bits)))
        for changed in [0, 40, 95, 96, 110] {
            var other = bits
            other[changed] ^= 1
            #expect(!image.isIdentical(to: BinaryImage(width: 37, height: 3, pixels: other)))
        }
    }

    @Test func smallImagesFallBackToTheGlobalThreshold() {
        let tiny = LuminancePlane(width: 12, height: 12, pixels: (0..<144).map { $0 % 2 == 0 ? 0 : 255 })
        let binary = BlockBinarizer.binarize(tiny)
        #expect(binary.isDark(0, 0) && !binary.isDark(1, 0))
    }
}

    // Widths whose rows end in the vectorised loops' tails (211 halves to 105 pixels, sixteen column sums
    // and eight outputs at a time leaving two and one over) and a negative, read through its inversion.
    @Test(arguments: [2, 3, 4, 6, 16], [(97, false), (211, false), (211, true)])
    func downscalingAveragesEachBoxExactly(factor: Int, picture: (width: Int, inverted: Bool)) {
        var random = SeededGenerator(seed: UInt64(factor * picture.width))
        let width = picture.width, height = 53
        let pixels = (0..<(width * height)).map { _ in UInt8.random(in: 0...255, using: &random) }
        // Saturated boxes test the largest sums.
        let luminances = pixels.enumerated().map { $0.offset < width * 16 ? 255 : $0.element }
        let plane = picture.inverted ? LuminancePlane(width: width, height: height, pixels: luminances.map { ~$0 }).inverted()
            : LuminancePlane(width: width, height: height, pixels: luminances)
        let small = plane.downscaled(by: factor)
        #expect(small.width == width / factor && small.height == height / factor)
        var wrong = 0
        for y in 0..<small.height {
            for x in 0..<small.width {
                var sum = 0
                for yy in 0..<factor { for xx in 0..<factor { sum += Int(luminances[(y * factor + yy) * width + x * factor + xx]) } }
                if Int(small.pixels[y * small.width + x]) != sum / (factor * factor) { wrong += 1 }
            }
        }
        #expect(wrong == 0)
    }

    /// Enlarging twice is Keys' bicubic interpolation (a = −1) at the enlarged pixels' centres, across and then
    /// down, each to the nearest grey level, the outer pixels repeated at the edges; read through a negative's
    /// inversion too. 37 pixels across enlarge to 74: rows made 16 pixels at a time, and 10 one by one.
    @Test(arguments: [false, true])
    func enlargingInterpolatesAtEachPixelsCentre(inverted: Bool) {
        var random = SeededGenerator(seed: 7)
        let width = 37, height = 9
        let luminances = (0..<(width * height)).map { _ in UInt8.random(in: 0...255, using: &random) }
        let plane = inverted ? LuminancePlane(width: width, height: height, pixels: luminances.map { ~$0 }).inverted()
            : LuminancePlane(width: width, height: height, pixels: luminances)
        let large = plane.enlarged()
        #expect(large.width == 2 * width && large.height == 2 * height && large.inversion == 0)
        func keys(_ distance: Double) -> Double {
            let d = abs(distance), a = -1.0
            if d <= 1 { return (a + 2) * d * d * d - (a + 3) * d * d + 1 }
            return d < 2 ? a * d * d * d - 5 * a * d * d + 8 * a * d - 4 * a : 0
        }
        // Output pixel i of a line lies at source coordinate (i + 0.5) / 2 − 0.5, source pixel centres at integers.
        func interpolated(_ i: Int, among count: Int, _ value: (Int) -> Double) -> Double {
            let s = (Double(i) + 0.5) / 2 - 0.5, first = Int(s.rounded(.down)) - 1
            let sum = (first...(first + 3)).reduce(0.0) { $0 + keys(s - Double($1)) * value(min(max($1, 0), count - 1)) }
            return min(max((sum + 0.5).rounded(.down), 0), 255)
        }
        let across = (0..<height).map { y in
            (0..<large.width).map { x in interpolated(x, among: width) { Double(luminances[y * width + $0]) } }
        }
        var wrong = 0
        for y in 0..<large.height {
            for x in 0..<large.width where Double(large.pixels[y * large.width + x]) != interpolated(y, among: height, { across[$0][x] }) {
                wrong += 1
            }
        }
        #expect(wrong == 0)
        // A step keeps the levels a quarter and three quarters of the way, and gains the under- and overshoot
        // beside it that keep it steep.
        let step = LuminancePlane(width: 6, height: 1, pixels: [64, 64, 64, 192, 192, 192]).enlarged()
        #expect(Array(step.pixels.prefix(12)) == [64, 64, 64, 58, 46, 96, 160, 210, 198, 192, 192, 192])
    }

@Suite("Finder patterns")
struct FinderPatternTests {
    @Test(arguments: [0.0, 30, 45, 77])
    func threePatternsAtTheSymbolsCorners(_ degrees: Double) throws {
        let code = try QRCode.encode("finder patterns", options: .version(3))
        var scene = SyntheticScene(width: 300, height: 300)
        scene.place(code.modules, center: Point(150, 150), moduleSize: 6, degrees: degrees)
        let patterns = FinderPatternFinder.find(in: BlockBinarizer.binarize(plane(scene)), rowStep: 1)
        #expect(patterns.count == 3)
        // Finder centres are 3.5 modules in from the corners: 29/2 − 3.5 = 11 modules from the centre.
        let angle = degrees * .pi / 180
        func rotated(_ x: Double, _ y: Double) -> Point {
            Point(150 + (x * cos(angle) - y * sin(angle)) * 6, 150 + (x * sin(angle) + y * cos(angle)) * 6)
        }
        for expected in [rotated(-11, -11), rotated(11, -11), rotated(-11, 11)] {
            #expect(patterns.contains { $0.center.distance(to: expected) < 2 && abs($0.moduleSize - 6) < 1.5 })
        }
        let sets = FinderPatternGrouper.sets(from: patterns)
        #expect(sets.count == 1)
        #expect(try #require(sets.first).topLeft.center.distance(to: rotated(-11, -11)) < 2)
        #expect(try #require(sets.first).topRight.center.distance(to: rotated(11, -11)) < 2)
    }

    /// A light speck in a finder's centre stone, on the row through its centre: every row hit is checked
    /// along that same row, so the pattern is found only because the rows a third of a module aside are read.
    @Test func aSpeckOnTheStonesCentreRowIsReadAround() throws {
        let code = try QRCode.encode("speck", options: .version(3))
        var scene = SyntheticScene(width: 300, height: 300)
        scene.place(code.modules, center: Point(150, 150), moduleSize: 9)
        // The top-left finder's centre: 150 − 14.5 · 9 + 3.5 · 9 = 51; its stone spans 37.5…64.5.
        var pixels = scene.pixels
        for y in 50...51 { pixels[y * 300 + 62] = 235 }
        let speckled = LuminancePlane(width: 300, height: 300, pixels: pixels)
        let patterns = FinderPatternFinder.find(in: BlockBinarizer.binarize(speckled), rowStep: 1)
        #expect(patterns.count == 3, "\(patterns)")
        #expect(patterns.contains { $0.center.distance(to: Point(51, 51)) < 2 && !$0.isDamaged && abs($0.moduleSize - 9) < 1.5 }, "\(patterns)")
        #expect(QRCodeReader().read(luminance: pixels, width: 300, height: 300).map(\.text) == ["speck"])
    }

    /// A light speck on a finder's outer ring, where the diagonal through its centre crosses the ring's
    /// corner: every row hit is checked along that same diagonal, so the pattern is found whole only because
    /// the diagonals a third of a module aside are read.
    @Test func aSpeckOnTheRingsCornerIsReadAround() throws {
        let code = try QRCode.encode("corner speck", options: .version(3))
        var scene = SyntheticScene(width: 300, height: 300)
        scene.place(code.modules, center: Point(150, 150), moduleSize: 9)
        // The top-left finder's outer corner module spans 19.5…28.5 either way; its centre is (51, 51). The
        // speck leaves the diagonal one dark pixel of the ring, (28, 28).
        var pixels = scene.pixels
        for i in 25...27 { pixels[i * 300 + i] = 235 }
        let binary = BlockBinarizer.binarize(LuminancePlane(width: 300, height: 300, pixels: pixels))
        #expect(PatternRuns.symmetricRuns(in: binary, x: 51, y: 51, dx: 1, dy: 1, maxRun: 200)
            .flatMap { FinderPatternFinder.finderRuns($0.runs, tolerance: 0.8, clipping: false) } == nil)
        let patterns = FinderPatternFinder.find(in: binary, rowStep: 1)
        #expect(patterns.count == 3, "\(patterns)")
        #expect(patterns.contains { $0.center.distance(to: Point(51, 51)) < 2 && !$0.isDamaged && abs($0.moduleSize - 9) < 1.5 }, "\(patterns)")
    }

    /// A finder of about 2.6-pixel modules that blur and the threshold have thinned unevenly along x (as
    /// measured in a photo): the row through its centre reads 1:5:7:3:2, which no run tolerance takes for
    /// 1:1:3:1:1, but edge to edge (2:4:4:2 modules) it is one; the other lines read it strictly, and one
    /// row a little less thinned (2:4:7:3:2) is found by the row scan. Thinned so along y as well, two lines
    /// would need the edge-to-edge reading, one more than texture is allowed.
    @Test func aRingThinnedAlongOneLineIsReadEdgeToEdge() {
        let size = 40
        /// Bands along one axis: the outer ring's (0), the gap's (1) and the centre stone's (2) pixels, or
        /// -1 outside the pattern.
        let upright = [0, 0, 0, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 0, 0, 0]
        let thinned = [-1, -1, 0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 0, 0, -1]
        let lessThinned = [-1, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 0, 0, -1, -1]
        func finder(alongY: [Int]) -> BinaryImage {
            var bits = [UInt8](repeating: 0, count: size * size)
            for y in 0..<21 {
                let alongX = y == 12 ? lessThinned : thinned
                for x in 0..<21 where alongX[x] >= 0 && alongY[y] >= 0 {
                    // Concentric squares: the outermost band either way is the pixel's ring.
                    bits[(y + 10) * size + x + 10] = min(alongX[x], alongY[y]) == 1 ? 0 : 1
                }
            }
            return BinaryImage(width: size, height: size, pixels: bits)
        }
        let found = FinderPatternFinder.find(in: finder(alongY: upright), rowStep: 1)
        #expect(found.count == 1 && !found[0].isDamaged && found[0].center.distance(to: Point(21.5, 20.5)) < 1.5, "\(found)")
        #expect(FinderPatternFinder.find(in: finder(alongY: thinned), rowStep: 1).isEmpty)
        let runs = RunLengths(1, 5, 7, 3, 2)
        #expect(PatternRuns.moduleSize(runs, pattern: FinderPatternFinder.pattern, tolerance: 0.8) == nil)
        #expect(FinderPatternFinder.edgeToEdgeModuleSize(runs) == 18.0 / 7)
        // A long centre run between thin rings and gaps is no finder either way, nor is pixel noise.
        #expect(FinderPatternFinder.edgeToEdgeModuleSize(RunLengths(2, 2, 16, 2, 2)) == nil)
        #expect(FinderPatternFinder.edgeToEdgeModuleSize(RunLengths(1, 2, 3, 1, 2)) == nil)
    }

    /// A symbol drawn as some generators style it (zxing-cpp/qrcode-2/#258 is one): each module a round dot,
    /// each finder a round centre stone three modules across inside a ring of eight dots (its corners and
    /// the middles of its sides). Both axes through the centre read about 1:1:3:1:1, but a diagonal meets
    /// only the corner dots, through a stone shorter and gaps longer than a square pattern's (3:12:15:12:3
    /// here, at 7 px per module), which the run tests reject; its edge-to-edge distances keep 2:4:4:2.
    @Test func aFinderOfRoundStoneAndDottedRingIsFound() throws {
        let module = 7.0, size = 300
        let (code, pixels) = try roundShapesSymbol(module: module, size: size)
        let dimension = code.modules.width
        let origin = (Double(size) - Double(dimension) * module) / 2
        let binary = BlockBinarizer.binarize(LuminancePlane(width: size, height: size, pixels: pixels))
        let centre = Point(origin, origin) + Point(3.5, 3.5) * module
        let diagonal = try #require(PatternRuns.symmetricRuns(in: binary, x: Int(centre.x), y: Int(centre.y), dx: 1, dy: 1, maxRun: 100))
        #expect(PatternRuns.moduleSize(diagonal.runs, pattern: FinderPatternFinder.pattern, tolerance: 0.8) == nil, "\(diagonal.runs)")
        #expect(FinderPatternFinder.edgeToEdgeModuleSize(diagonal.runs) == nil)
        #expect(FinderPatternFinder.roundShapesModuleSize(diagonal.runs).map { abs($0 - module) < 0.5 } == true, "\(diagonal.runs)")
        let patterns = FinderPatternFinder.find(in: binary, rowStep: 1)
        let centres = [Point(3.5, 3.5), Point(Double(dimension) - 3.5, 3.5), Point(3.5, Double(dimension) - 3.5)]
            .map { Point(origin, origin) + $0 * module }
        for centre in centres {
            #expect(patterns.contains { $0.center.distance(to: centre) < 2 && !$0.isDamaged }, "\(centre): \(patterns)")
        }
        #expect(QRCodeReader().read(luminance: pixels, width: size, height: size).map(\.text) == ["dotted design"])
        // Thin dark lines round a blob, or even runs (data, stripes), are no pattern of round shapes.
        #expect(FinderPatternFinder.roundShapesModuleSize(RunLengths(1, 13, 15, 13, 1)) == nil)
        #expect(FinderPatternFinder.roundShapesModuleSize(RunLengths(6, 6, 6, 6, 6)) == nil)
    }

    /// The same design reads at other module sizes. Before diagonals could read round shapes it failed at 8 and
    /// 11 px; at the others, rasterized diagonals can pass the run tests, or a later pass reads it.
    @Test(arguments: [5.0, 6.0, 8.0, 9.0, 11.0])
    func aSymbolOfRoundShapesReads(module: Double) throws {
        let (_, pixels) = try roundShapesSymbol(module: module, size: 400)
        #expect(QRCodeReader().read(luminance: pixels, width: 400, height: 400).map(\.text) == ["dotted design"])
    }

    /// A version 2 symbol drawn centred in a `size`-pixel square as in ``aFinderOfRoundStoneAndDottedRingIsFound()``:
    /// each module a round dot, each finder a round stone in a ring of eight dots, 4 × 4 samples per pixel.
    private func roundShapesSymbol(module: Double, size: Int) throws -> (code: QRCode, pixels: [UInt8]) {
        let code = try QRCode.encode("dotted design", options: .version(2))
        let dimension = code.modules.width
        let origin = (Double(size) - Double(dimension) * module) / 2
        let ringDots = [0, 3, 6].flatMap { i in [0, 3, 6].map { j in Point(Double(i) + 0.5, Double(j) + 0.5) } }
            .filter { $0 != Point(3.5, 3.5) }
        func isDark(_ point: Point) -> Bool {
            let x = (point.x - origin) / module, y = (point.y - origin) / module
            guard x >= 0, y >= 0, x < Double(dimension), y < Double(dimension) else { return false }
            for (fx, fy) in [(0, 0), (dimension - 7, 0), (0, dimension - 7)] {
                let local = Point(x - Double(fx), y - Double(fy))
                guard local.x >= 0, local.y >= 0, local.x < 7, local.y < 7 else { continue }
                return local.distance(to: Point(3.5, 3.5)) <= 1.5 || ringDots.contains { $0.distance(to: local) <= 0.35 }
            }
            let mx = Int(x), my = Int(y)
            return code.modules[mx, my] && Point(x, y).distance(to: Point(Double(mx) + 0.5, Double(my) + 0.5)) <= 0.45
        }
        var pixels = [UInt8](repeating: 0, count: size * size)
        for y in 0..<size {
            for x in 0..<size {
                let dark = (0..<16).count { isDark(Point(Double(x) + (Double($0 % 4) + 0.5) / 4, Double(y) + (Double($0 / 4) + 0.5) / 4)) }
                pixels[y * size + x] = UInt8(235 - (215 * dark) / 16)
            }
        }
        return (code, pixels)
    }

    /// A steeply sheared symbol's finders measure very different sizes, which the grouping filters for
    /// more than five patterns reject: with a few more patterns and no set passing them, every triple counts,
    /// and so it does among up to five patterns that stand out from specks of grain, however many specks.
    @Test func aShearedSymbolIsGroupedDespiteAFewFalsePatterns() {
        func pattern(_ x: Double, _ y: Double, module: Double) -> FinderPattern {
            FinderPattern(center: Point(x, y), moduleSize: module, isDamaged: false)
        }
        // The finders of a 25-module symbol: a big one, and two squeezed to under half its size.
        let finders = [pattern(149, 130, module: 7.3), pattern(268, 80, module: 2.8), pattern(88, 262, module: 3.1)]
        // Three small false patterns, too far from everything to form sets.
        let strays = [pattern(600, 600, module: 1.1), pattern(900, 40, module: 1.0), pattern(40, 900, module: 1.2)]
        let sets = FinderPatternGrouper.sets(from: finders + strays)
        #expect(sets.contains { Set($0.indices) == [0, 1, 2] })
        // Specks of grain (modules under 2 px) that form sets among themselves leave the symbol its every triple.
        let specks = [pattern(1200, 1200, module: 1), pattern(1230, 1240, module: 1), pattern(1260, 1200, module: 1.1),
                      pattern(1290, 1240, module: 1)]
        let amongSpecks = FinderPatternGrouper.sets(from: finders + strays + specks)
        #expect(amongSpecks.contains { Set($0.indices) == [0, 1, 2] })
        #expect(amongSpecks.contains { Set($0.indices).isSubset(of: Set(6..<10)) })
        // With more patterns that are not grain the filters stay on.
        let crowd = (0..<4).map { pattern(Double(1200 + 300 * $0), 1200, module: 3) }
        #expect(!FinderPatternGrouper.sets(from: finders + strays + crowd).contains { Set($0.indices) == [0, 1, 2] })
    }

    /// A symbol seen steeply and slanted shows its top-left corner far off a right angle: up to 135° it is
    /// still grouped with the filters on, beyond that it is not.
    @Test(arguments: [(125.0, true), (130, true), (140, false)])
    func slantedCornersAreGroupedUpTo135Degrees(degrees: Double, grouped: Bool) {
        func pattern(_ point: Point) -> FinderPattern { FinderPattern(center: point, moduleSize: 4, isDamaged: false) }
        let topLeft = Point(300, 300), angle = degrees * .pi / 180
        // Legs of 100 and 110 px (a 33-module symbol), the corner at `degrees`.
        let corner = [topLeft, topLeft + Point(100, 0), topLeft + Point(cos(angle), sin(angle)) * 110].map(pattern)
        let strays = [Point(900, 40), Point(40, 900), Point(900, 900)].map(pattern)
        let sets = FinderPatternGrouper.sets(from: corner + strays)
        #expect(sets.contains { Set($0.indices) == [0, 1, 2] } == grouped)
    }

    /// Sensor noise on a faded page makes hundreds of finder-like patterns of 2–4 px modules; their triples
    /// are as long as a large symbol's, and better shaped. Classed apart from theirs, the symbol's own triple
    /// keeps its turn among them.
    @Test func aLargeSymbolIsGroupedAmongHundredsOfSmallerNoisePatterns() {
        var random = SeededGenerator(seed: 7)
        func pattern(_ x: Double, _ y: Double, module: Double) -> FinderPattern {
            FinderPattern(center: Point(x, y), moduleSize: module, isDamaged: false)
        }
        // A 57-module symbol of 7 px modules, its corner's legs 350 px long.
        let finders = [pattern(300, 850, module: 7), pattern(650, 850, module: 6.9), pattern(300, 1200, module: 8.9)]
        let noise = (0..<200).map { _ in
            pattern(Double.random(in: 0..<1500, using: &random), Double.random(in: 0..<2000, using: &random),
                    module: Double.random(in: 2...4, using: &random))
        }
        let sets = FinderPatternGrouper.sets(from: finders + noise)
        #expect(sets.contains { Set($0.indices) == [0, 1, 2] })
    }

    /// Excluded patterns form no sets, and the indices of the others still point into the whole list.
    @Test func excludedPatternsAreLeftOutOfSets() throws {
        func pattern(_ x: Double, _ y: Double) -> FinderPattern {
            FinderPattern(center: Point(x, y), moduleSize: 4, isDamaged: false)
        }
        // Two symbols' finders, 22 modules apart, side by side.
        let first = [pattern(100, 100), pattern(188, 100), pattern(100, 188)]
        let second = [pattern(400, 100), pattern(488, 100), pattern(400, 188)]
        let all = first + second
        #expect(Set(FinderPatternGrouper.sets(from: all).map { Set($0.indices) }).isSuperset(of: [[0, 1, 2], [3, 4, 5]]))
        let kept = FinderPatternGrouper.sets(from: all, excluding: [0, 1, 2])
        #expect(kept.map { Set($0.indices) } == [[3, 4, 5]])
        #expect(try #require(kept.first).topLeft.center == Point(400, 100))
    }

    @Test func retiredPatternsFormSetsOnlyWithOthers() {
        func pattern(_ x: Double, _ y: Double) -> FinderPattern {
            FinderPattern(center: Point(x, y), moduleSize: 4, isDamaged: false)
        }
        // A decoded symbol's finders (retired), another symbol's, and a stray pattern where the decoded
        // symbol's bottom-right corner would be a fourth finder: it completes a triangle with two of them.
        let decoded = [pattern(100, 100), pattern(188, 100), pattern(100, 188)]
        let other = [pattern(400, 100), pattern(488, 100), pattern(400, 188)]
        let sets = FinderPatternGrouper.sets(from: decoded + other + [pattern(188, 188)], retired: [0, 1, 2]).map { Set($0.indices) }
        #expect(!sets.contains([0, 1, 2]))
        #expect(sets.contains([3, 4, 5]))
        #expect(sets.contains([1, 2, 6]))
        #expect(sets.allSatisfy { !$0.isSubset(of: [0, 1, 2]) })
    }

    @Test func patternsPairLikeTwoFindersOfOneSymbol() {
        func pattern(_ x: Double, module: Double) -> FinderPattern {
            FinderPattern(center: Point(x, 0), moduleSize: module, isDamaged: false)
        }
        let a = pattern(0, module: 4)
        #expect(FinderPatternGrouper.mayShareSymbol(a, pattern(14 * 4, module: 4)))
        #expect(FinderPatternGrouper.mayShareSymbol(a, pattern(100 * 4, module: 5)))
        // Too close, too far, or too different in size.
        #expect(!FinderPatternGrouper.mayShareSymbol(a, pattern(10 * 4, module: 4)))
        #expect(!FinderPatternGrouper.mayShareSymbol(a, pattern(400 * 4, module: 4)))
        #expect(!FinderPatternGrouper.mayShareSymbol(a, pattern(50 * 4, module: 12)))
    }

    /// Pixel noise matches 1:1:3:1:1 along four lines now and then, but only at the scale of single pixels.
    @Test func noiseOnlyMimicsPixelSizedFinderPatterns() {
        var random = SeededGenerator(seed: 99)
        let pixels = (0..<(400 * 300)).map { _ in UInt8.random(in: 0...255, using: &random) }
        let patterns = FinderPatternFinder.find(in: BlockBinarizer.binarize(LuminancePlane(width: 400, height: 300, pixels: pixels)))
        #expect(patterns.count < 30)
        #expect(patterns.allSatisfy { $0.moduleSize < 2 })
    }

    /// Both run readers (whole-pixel lines and rays) against a plain count on random lines: the same runs,
    /// the last one cut one pixel past `maxRun` or ended by the border, and nil when an earlier one is.
    @Test func runReadersCountRunsAsAPlainCountDoes() {
        var random = SeededGenerator(seed: 7)
        let (width, height) = (40, 30)
        // Runs of 1–6 pixels, so that some exceed the limits below and some lines end at the border.
        var bits = [UInt8](repeating: 0, count: width * height)
        var color: UInt8 = 0, left = 0
        for i in bits.indices {
            if left == 0 { color ^= 1; left = Int.random(in: 1...6, using: &random) }
            bits[i] = color
            left -= 1
        }
        let image = BinaryImage(width: width, height: height, pixels: bits)
        func plainCount(x: Int, y: Int, dx: Int, dy: Int, count: Int, maxRun: Int) -> RunLengths? {
            var runs = RunLengths(count: count)
            var (x, y, index, length) = (x, y, 0, 0)
            let color0 = image.isDark(x, y)
            while image.contains(x, y) {
                if image.isDark(x, y) != ((index % 2 == 0) == color0) {
                    runs[index] = Double(length)
                    index += 1
                    if index == count { return runs }
                    length = 0
                }
                length += 1
                if length > maxRun {
                    guard index == count - 1 else { return nil }
                    runs[index] = Double(length)
                    return runs
                }
                (x, y) = (x + dx, y + dy)
            }
            guard index == count - 1 else { return nil }
            runs[index] = Double(length)
            return runs
        }
        func lengths(_ runs: RunLengths?) -> [Double]? { runs.map { r in (0..<r.count).map { r[$0] } } }
        var compared = (found: 0, missing: 0)
        for _ in 0..<2000 {
            let (x, y) = (Int.random(in: 0..<width, using: &random), Int.random(in: 0..<height, using: &random))
            let (dx, dy) = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, 1)][Int.random(in: 0..<6, using: &random)]
            let count = Int.random(in: 1...5, using: &random), maxRun = Int.random(in: 2...8, using: &random)
            let expected = lengths(plainCount(x: x, y: y, dx: dx, dy: dy, count: count, maxRun: maxRun))
            #expect(lengths(PatternRuns.runs(in: image, fromX: x, y: y, dx: dx, dy: dy, count: count, maxRun: maxRun)) == expected)
            if dx == 0 || dy == 0 {
                // A ray from the pixel's centre along an axis crosses the same pixels.
                let ray = PatternRuns.runs(in: image, from: Point(Double(x) + 0.5, Double(y) + 0.5),
                                           direction: Point(Double(dx), Double(dy)), count: count, maxRun: Double(maxRun))
                #expect(lengths(ray) == expected)
            }
            if expected == nil { compared.missing += 1 } else { compared.found += 1 }
        }
        // Both outcomes occur often enough for the comparison to mean something.
        #expect(compared.found > 300 && compared.missing > 300)
    }

    @Test func sheetOfLabelsGroupsEverySymbol() throws {
        var scene = SyntheticScene(width: 640, height: 480)
        for row in 0..<3 {
            for column in 0..<4 {
                let code = try QRCode.encode("label \(row)-\(column)")
                scene.place(code.modules, center: Point(Double(90 + column * 150), Double(90 + row * 150)), moduleSize: 4)
            }
        }
        let results = read(scene)
        #expect(Set(results.map(\.text)) == Set((0..<3).flatMap { r in (0..<4).map { "label \(r)-\($0)" } }))
    }

    /// A sheet of 144 labels, each a finder's width from its neighbours: their finders form far more sets
    /// than the grouper gives at once (each label's own, and many borrowing a neighbour's finder), so the
    /// patterns left once a batch has decoded are grouped again. With one batch, 82 were read.
    @Test func aSheetOfMoreLabelsThanOneBatchOfSetsReadsEveryLabel() throws {
        let count = 12, cell = 87
        var scene = SyntheticScene(width: count * cell, height: count * cell)
        var texts = Set<String>()
        for row in 0..<count {
            for column in 0..<count {
                let text = "label \(row)-\(column)"
                texts.insert(text)
                let code = try QRCode.encode(text, options: .version(1))
                scene.place(code.modules, center: Point(Double(column * cell) + 43.5, Double(row * cell) + 43.5), moduleSize: 3)
            }
        }
        let results = read(scene)
        #expect(results.count == texts.count)
        #expect(texts.subtracting(results.map(\.text)).isEmpty)
    }

    /// A picture tiled with finder-like squares (2-px modules, one every 16 px: 64 × 64 of them) is one
    /// finder pattern per square, each found on several scan lines and merged into one, and its sets are
    /// the squares' best triples: mostly right angles with legs of one or two squares (two legs of one
    /// span fewer than a symbol's 21 modules). Such pictures hold tens of thousands of patterns; the
    /// patterns found so far are looked up by place and the triples scored are pruned as they gather, and
    /// neither may lose one.
    @Test func aPictureTiledWithFinderLikeSquaresGivesOnePatternPerSquareAndTheBestSets() {
        let count = 64, spacing = 16
        let patterns = FinderPatternFinder.find(in: Self.finderTiling(count: count, spacing: spacing), rowStep: 3)
        #expect(patterns.count == count * count)
        #expect(patterns.allSatisfy { pattern in
            let cell = Point(Double(Int(pattern.center.x) / spacing * spacing + 8), Double(Int(pattern.center.y) / spacing * spacing + 8))
            return !pattern.isDamaged && pattern.center.distance(to: cell) < 1 && abs(pattern.moduleSize - 2) < 0.5
        })
        let sets = FinderPatternGrouper.sets(from: patterns)
        #expect(sets.count == FinderPatternGrouper.maximumSets)
        // Octaves of size take turns, each best first: the first sets are the smallest right angles at the
        // tiling's corner, legs of one and two squares (16 × 32 px), then two and two (32 × 32 px).
        func legs(_ set: FinderPatternSet) -> (top: Point, left: Point) {
            (set.topRight.center - set.topLeft.center, set.bottomLeft.center - set.topLeft.center)
        }
        func isSet(_ set: FinderPatternSet, at corners: [Point]) -> Bool {
            zip([set.topLeft.center, set.topRight.center, set.bottomLeft.center], corners).allSatisfy { $0.distance(to: $1) < 0.5 }
        }
        #expect(sets.count >= 2 && isSet(sets[0], at: [Point(8, 8), Point(24, 8), Point(8, 40)])
            && isSet(sets[1], at: [Point(8, 8), Point(40, 8), Point(8, 40)]))
        let smallRightAngles = sets.filter { set in
            let (top, left) = legs(set)
            let (a, b) = (min(top.length, left.length), max(top.length, left.length))
            return abs(top.dot(left)) < 1 && [16.0, 32].contains(a.rounded()) && b.rounded() == 32
        }
        #expect(2 * smallRightAngles.count > sets.count)
    }

    /// A binary picture of `count` × `count` finder-like squares of 2-px modules, one at (1, 1) in each
    /// `spacing`-px cell.
    private static func finderTiling(count: Int, spacing: Int) -> BinaryImage {
        let size = count * spacing
        var bits = [UInt8](repeating: 0, count: size * size)
        for y in 0..<size {
            for x in 0..<size {
                let u = x % spacing - 1, v = y % spacing - 1
                guard (0..<14).contains(u), (0..<14).contains(v) else { continue }
                let ring = min(u, v, 13 - u, 13 - v) / 2
                bits[y * size + x] = ring == 1 ? 0 : 1
            }
        }
        return BinaryImage(width: size, height: size, pixels: bits)
    }

    /// Past their deadline the finder scans read no more rows and the groupers score no more triples, so
    /// that a time budget holds within a pass: in a 16 MP picture tiled with finder-like squares, one
    /// grouping took 14 s. A deadline still ahead changes nothing.
    @Test func theFinderScansAndTheGroupersStopAtTheirDeadline() {
        let tiling = Self.finderTiling(count: 24, spacing: 16)
        let passed = ContinuousClock.now - .seconds(1), ahead = ContinuousClock.now + .seconds(3600)
        #expect(FinderPatternFinder.find(in: tiling, rowStep: 3, allowingDamage: true, until: passed).isEmpty)
        let patterns = FinderPatternFinder.find(in: tiling, rowStep: 3, until: ahead)
        #expect(patterns.count == 24 * 24)
        #expect(patterns.map(\.center) == FinderPatternFinder.find(in: tiling, rowStep: 3).map(\.center))
        #expect(FinderPatternGrouper.sets(from: patterns, until: passed).isEmpty)
        #expect(FinderPatternGrouper.sets(from: patterns, until: ahead).map(\.indices)
            == FinderPatternGrouper.sets(from: patterns).map(\.indices))
        // Every third pattern taken as damaged: sets with one, and sets in which one completes two others.
        let damaged = patterns.enumerated().map { index, pattern in
            FinderPattern(center: pattern.center, moduleSize: pattern.moduleSize, isDamaged: index % 3 == 0)
        }
        let partners = [1, 2, 25, 26]
        #expect(!FinderPatternGrouper.damagedSets(from: damaged, until: ahead).isEmpty)
        #expect(FinderPatternGrouper.damagedSets(from: damaged, until: passed).isEmpty)
        #expect(!FinderPatternGrouper.completingSets(from: damaged, partners: partners, until: ahead).isEmpty)
        #expect(FinderPatternGrouper.completingSets(from: damaged, partners: partners, until: passed).isEmpty)
        // Each square's centre stone is a core.
        let everywhere = [Rect(x: 0, y: 0, width: 384, height: 384)]
        #expect(FinderCoreFinder.find(in: tiling, regions: everywhere, moduleSizes: 1.5...3, until: ahead).count == FinderCoreFinder.maximumCores)
        #expect(FinderCoreFinder.find(in: tiling, regions: everywhere, moduleSizes: 1.5...3, until: passed).isEmpty)
    }

    /// Looking patterns up by place finds what a search through all of them finds: the first pattern, in
    /// the order added, within half its size of a point (a new hit on it) or close enough to merge with
    /// a new reading, also after readings moved and resized it; with a few patterns (searched in turn) and
    /// with hundreds (filed by place, some of them moved before they were filed).
    @Test(arguments: [20, 400])
    func patternsLookedUpByPlaceAreThoseASearchThroughAllFinds(readings: Int) {
        var random = SeededGenerator(seed: 35)
        var index = FinderPatternIndex(width: 300, height: 200)
        var all: [FinderPattern] = []
        func randomPattern() -> FinderPattern {
            FinderPattern(center: Point(Double.random(in: -5...305, using: &random), Double.random(in: -5...205, using: &random)),
                          moduleSize: Double.random(in: 0.8...12, using: &random))
        }
        for _ in 0..<readings {
            var pattern = randomPattern()
            if let moved = all.indices.randomElement(using: &random), Bool.random(using: &random) {
                pattern.center = all[moved].center + Point(Double.random(in: -4...4, using: &random), Double.random(in: -4...4, using: &random))
                pattern.moduleSize = all[moved].moduleSize * Double.random(in: 0.8...1.25, using: &random)
                all[moved] = pattern
                index.update(pattern, at: moved)
            } else {
                all.append(pattern)
                index.append(pattern)
            }
        }
        #expect(index.patterns == all)
        for _ in 0..<2000 {
            let probe = randomPattern()
            func hit(_ p: FinderPattern) -> Bool { p.center.distance(to: probe.center) < p.size / 2 }
            func merges(_ p: FinderPattern) -> Bool {
                p.center.distance(to: probe.center) < max(p.moduleSize, probe.moduleSize) * 2
                    && abs(p.moduleSize - probe.moduleSize) < max(p.moduleSize, probe.moduleSize) * 0.5
            }
            #expect(index.firstIndex(near: probe.center, where: hit) == all.firstIndex(where: hit))
            #expect(index.firstIndex(near: probe.center, where: merges) == all.firstIndex(where: merges))
            let radius = probe.size
            func within(_ p: FinderPattern) -> Bool { p.center.distance(to: probe.center) < radius }
            #expect(index.contains(near: probe.center, within: radius, where: within) == all.contains(where: within))
        }
        // Points and radii far beyond the picture, or not numbers, read the cells at its edges.
        #expect(index.firstIndex(near: Point(1e300, -1e300), within: 1e301) { _ in true } == 0)
        #expect(index.firstIndex(near: Point(.nan, .infinity)) { _ in false } == nil)
    }
}

@Suite("Locating")
struct LocatingTests {
    /// Seen steeply and turned about 45° to the tilt, a symbol is sheared into a parallelogram whose
    /// top-left angle is under 60°. The triangle of finder centres then looks right-angled at another
    /// corner; the finders' own sides name the top-left. Without that, none of these angles read.
    @Test(arguments: [0.0, 20, 45, 70, 90, 110, 135, 160, 180, 200, 225, 250, 270, 290, 315, 340])
    func shearedSymbolTakesItsTopLeftFromTheFinderSides(_ degrees: Double) throws {
        let code = try QRCode.encode("sheared hard", options: .version(2, level: .low))
        let side = 6.0 * Double(code.size)
        func direction(_ degrees: Double) -> Point { Point(cos(degrees * .pi / 180), sin(degrees * .pi / 180)) }
        let u = direction(degrees) * side, v = direction(degrees + 55) * side
        let topLeft = Point(190, 190) - (u + v) / 2
        var scene = SyntheticScene(width: 380, height: 380)
        scene.place(code.modules, corners: [topLeft, topLeft + u, topLeft + u + v, topLeft + v])
        let binary = BlockBinarizer.binarize(plane(scene))
        // The centre of the finder pattern at module (x, y) of the symbol.
        func finder(_ x: Double, _ y: Double) -> Point { topLeft + u * (x / Double(code.size)) + v * (y / Double(code.size)) }
        let far = Double(code.size) - 3.5
        let finders = [finder(3.5, 3.5), finder(far, 3.5), finder(3.5, far)]
        // The set of the three real finder patterns, however the grouper named them.
        let set = try #require(FinderPatternGrouper.sets(from: FinderPatternFinder.find(in: binary, rowStep: 1)).first { set in
            [set.topLeft, set.topRight, set.bottomLeft].allSatisfy { pattern in finders.contains { $0.distance(to: pattern.center) < 3 } }
        })
        let reoriented = SymbolLocator.reoriented(set, in: binary, cache: FinderCorners.Cache())
        #expect(reoriented.topLeft.center.distance(to: finders[0]) < 3)
        #expect(reoriented.topRight.center.distance(to: finders[1]) < 3)
        #expect(reoriented.bottomLeft.center.distance(to: finders[2]) < 3)
        #expect(QRCodeReader().read(plane(scene)).results.map(\.text) == ["sheared hard"])
    }

    /// A finder pattern whose runs do not read toward its partner (here its light ring filled on that side,
    /// as blur can merge it at small modules) counts with the module size it was found with, unless it is
    /// grain or its partner's runs do not read either.
    @Test func aPatternWhoseRunsMissAlongTheLineCountsWithItsOwnModuleSize() throws {
        let code = try QRCode.encode("runs", options: .version(3))
        var scene = SyntheticScene(width: 200, height: 200)
        scene.place(code.modules, center: Point(100, 100), moduleSize: 4)
        let clean = BlockBinarizer.binarize(plane(scene))
        let patterns = FinderPatternFinder.find(in: clean, rowStep: 1)
        // Symbol from 42 to 158 px: finder centres 14 px in.
        let topLeft = try #require(patterns.first { $0.center.distance(to: Point(56, 56)) < 2 })
        let topRight = try #require(patterns.first { $0.center.distance(to: Point(144, 56)) < 2 })
        #expect(SymbolLocator.estimateDimension(clean, topLeft, topRight)?.dimension == 29)
        // The top-left pattern's light ring right of its stone (x 62-65), and the top-right's left of its
        // stone (x 134-137), made dark on the rows through their centres.
        func filled(_ columns: [ClosedRange<Int>]) -> BinaryImage {
            var bits = clean.pixels
            for y in 50...62 { for range in columns { for x in range { bits[y * clean.width + x] = 1 } } }
            return BinaryImage(width: clean.width, height: clean.height, pixels: bits)
        }
        let oneSide = filled([62...65])
        #expect(SymbolLocator.estimateDimension(oneSide, topLeft, topRight)?.dimension == 29)
        var grain = topLeft
        grain.moduleSize = 1.5
        #expect(SymbolLocator.estimateDimension(oneSide, grain, topRight) == nil)
        #expect(SymbolLocator.estimateDimension(filled([62...65, 134...137]), topLeft, topRight) == nil)
    }

    /// An upright symbol's set, at any rotation, keeps the top-left the grouper gave it.
    @Test(arguments: [0.0, 30, 135])
    func uprightSetKeepsItsTopLeft(_ degrees: Double) throws {
        let code = try QRCode.encode("upright", options: .version(2))
        var scene = SyntheticScene(width: 300, height: 300)
        scene.place(code.modules, center: Point(150, 150), moduleSize: 6, degrees: degrees)
        let binary = BlockBinarizer.binarize(plane(scene))
        let set = try #require(FinderPatternGrouper.sets(from: FinderPatternFinder.find(in: binary, rowStep: 1)).first)
        let reoriented = SymbolLocator.reoriented(set, in: binary, cache: FinderCorners.Cache())
        #expect(reoriented.indices == set.indices)
    }

    /// A symbol seen steeply and turned to the tilt is sheared: its finder patterns become narrow rhombi,
    /// read about 2.3 px per module along rows and 9.4 px down columns (over 4:1), both sides within 25° of
    /// vertical. Each is still found, and its square fitted along its own sides, corners where they are.
    @Test func shearedFinderIsFoundAndItsSquareFitted() throws {
        let code = try QRCode.encode("sheared", options: .version(2))
        let (scene, module) = shearedScene(code)
        let binary = BlockBinarizer.binarize(plane(scene))
        let found = FinderPatternFinder.find(in: binary, rowStep: 1)
        let u = module(1, 0) - module(0, 0), v = module(0, 1) - module(0, 0)
        for origin in [(0.0, 0.0), (18, 0), (0, 18)] {
            func pixel(_ x: Double, _ y: Double) -> Point { module(origin.0 + x, origin.1 + y) }
            let finder = try #require(found.first { $0.center.distance(to: pixel(3.5, 3.5)) < 3 }, "finder at \(origin)")
            #expect(finder.isSheared && !finder.isDamaged)
            let square = try #require(FinderCorners.square(of: finder, in: binary), "square at \(origin)")
            let sides = try #require(square.oriented(u: u.normalized, v: v.normalized, around: finder.center))
            // Each side within 2 px of its two corners. (The corners themselves move three and
            // a half times as far as a side along the long diagonal, where the sides meet at 34°.)
            let truth = [pixel(0, 0), pixel(7, 0), pixel(7, 7), pixel(0, 7)]
            for (index, side) in [sides.top, sides.right, sides.bottom, sides.left].enumerated() {
                for corner in [truth[index], truth[(index + 1) % 4]] {
                    #expect(abs(side.distance(to: corner)) < 2, "side \(index) of the finder at \(origin)")
                }
            }
        }
    }

    /// A finder's square is fitted once in its own axes and relabelled for each symbol it may belong to.
    @Test(arguments: [0.0, 20, 45, 110])
    func finderSquareIsRelabelledForTheSymbolsAxes(_ degrees: Double) throws {
        let code = try QRCode.encode("corners", options: .version(2))
        var scene = SyntheticScene(width: 300, height: 300)
        scene.place(code.modules, center: Point(150, 150), moduleSize: 6, degrees: degrees)
        let binary = BlockBinarizer.binarize(plane(scene))
        let angle = degrees * .pi / 180
        let u = Point(cos(angle), sin(angle)), v = Point(-sin(angle), cos(angle))
        // The top-left finder: its outer corners are modules (0,0), (7,0), (7,7), (0,7) of the symbol.
        func pixel(_ x: Double, _ y: Double) -> Point {
            let dx = (x - 12.5) * 6, dy = (y - 12.5) * 6
            return Point(150 + dx * u.x + dy * v.x, 150 + dx * u.y + dy * v.y)
        }
        let finder = try #require(FinderPatternFinder.find(in: binary, rowStep: 1).min { $0.center.distance(to: pixel(3.5, 3.5)) < $1.center.distance(to: pixel(3.5, 3.5)) })
        let square = try #require(FinderCorners.square(of: finder, in: binary))
        let corners = try #require(square.oriented(u: u, v: v, around: finder.center)?.corners)
        for (corner, truth) in zip(corners, [pixel(0, 0), pixel(7, 0), pixel(7, 7), pixel(0, 7)]) {
            #expect(corner.distance(to: truth) < 2)
        }
        // Seen mirrored (axes swapped), the same square's corners come in the mirrored order.
        let mirrored = try #require(square.oriented(u: v, v: u, around: finder.center)?.corners)
        #expect(mirrored[1].distance(to: corners[3]) < 0.01 && mirrored[3].distance(to: corners[1]) < 0.01)
        // Axes 25° off (steep perspective) still label it; 40° off, its sides run along neither axis: a
        // square fitted that far from its symbol's axes is a misfit and gives no corners.
        for (offset, labelled) in [(25.0, true), (-25, true), (40, false), (-40, false)] {
            let tilted = angle + offset * .pi / 180
            let a = Point(cos(tilted), sin(tilted)), b = Point(-sin(tilted), cos(tilted))
            #expect((square.oriented(u: a, v: b, around: finder.center) != nil) == labelled)
        }
    }

    @Test func nearlyIdenticalGridsAreSampledOnce() throws {
        var attempted = AttemptedGrids()
        let square = [Point(0, 0), Point(21, 0), Point(21, 21), Point(0, 21)]
        func grid(shiftedBy shift: Double) throws -> SamplingGrid {
            let transform = try #require(PerspectiveTransform(from: square, to: square.map { Point($0.x * 4 + 10 + shift, $0.y * 4 + 10) }))
            return SamplingGrid(dimension: 21, transform: transform)
        }
        #expect(attempted.insert(try grid(shiftedBy: 0), scale: 1, sampling: .binary, pass: 1))
        // A hundredth of a module away: the same samples.
        #expect(!attempted.insert(try grid(shiftedBy: 0.04), scale: 1, sampling: .binary, pass: 1))
        // Half a module away, or another binary image: worth sampling.
        #expect(attempted.insert(try grid(shiftedBy: 2), scale: 1, sampling: .binary, pass: 1))
        #expect(attempted.insert(try grid(shiftedBy: 0), scale: 1, sampling: .binary, pass: 2))
    }

    /// A symbol running off every side of a 90-pixel picture, 5 px per module from (-12, -12): luminance
    /// sampling reads the modules inside alike on both sides (the middle's taps go unchecked, the edges'
    /// are clamped), and gives those wholly outside no confidence instead of reading past the pixels.
    @Test func luminanceSamplingReadsUpToThePictureEdgesAndNothingBeyond() throws {
        let code = try QRCode.encode("over the edges", options: .version(1, level: .low))
        let n = Double(code.size), size = 5.0, origin = -12.0
        let corners = [Point(origin, origin), Point(origin + n * size, origin), Point(origin + n * size, origin + n * size),
                       Point(origin, origin + n * size)]
        var scene = SyntheticScene(width: 90, height: 90)
        scene.place(code.modules, corners: corners)
        let square = [Point(0, 0), Point(n, 0), Point(n, n), Point(0, n)]
        let grid = SamplingGrid(dimension: code.size, transform: try #require(PerspectiveTransform(from: square, to: corners)))
        let (modules, confidence) = ModuleSampler.sample(grid, luminance: plane(scene)).modules()
        // Module centres lie at -9.5, -4.5, 0.5, 5.5, …, 90.5 on both axes.
        func centre(_ k: Int) -> Double { origin + (Double(k) + 0.5) * size }
        for y in 0..<code.size {
            for x in 0..<code.size {
                let (cx, cy) = (centre(x), centre(y))
                if (3...87).contains(cx) && (3...87).contains(cy) {
                    #expect(modules[x, y] == code.modules[x, y], "module (\(x), \(y))")
                } else if cx < -3 || cy < -3 {
                    #expect(confidence[y * code.size + x] == 0, "module (\(x), \(y))")
                }
            }
        }
    }

    /// A light module alone among dark ones, greyed by blur below the local threshold: the plain values
    /// read it dark, the sharpened ones light (its neighbours all darker than it), and every other module
    /// keeps its colour.
    @Test func sharpeningReadsALoneLightModuleThatBlurGreyed() {
        // Columns 0–3 light, 4–8 dark, module (6, 4) light but read at 90.
        var values = [Float](repeating: 60, count: 81)
        for y in 0..<9 { for x in 0..<4 { values[y * 9 + x] = 220 } }
        values[4 * 9 + 6] = 90
        let samples = LuminanceSamples(width: 9, height: 9, values: values)
        let plain = samples.modules().modules, sharpened = samples.modules(sharpened: true).modules
        #expect(plain[6, 4])
        #expect(!sharpened[6, 4])
        for y in 0..<9 {
            for x in 0..<9 where (x, y) != (6, 4) {
                #expect(plain[x, y] == (x >= 4) && sharpened[x, y] == (x >= 4), "module (\(x), \(y))")
            }
        }
    }

    /// A grid over one 84 px square symbol of `dimension` modules, moved right by `shift` pixels.
    private static func grid(shiftedBy shift: Double, dimension: Int = 21) throws -> SamplingGrid {
        let square = [Point(0, 0), Point(21, 0), Point(21, 21), Point(0, 21)]
        let target = square.map { Point($0.x * 4 + 10 + shift, $0.y * 4 + 10) }
        let unit = square.map { $0 * (Double(dimension) / 21) }
        return SamplingGrid(dimension: dimension, transform: try #require(PerspectiveTransform(from: unit, to: target)))
    }

    @Test func aSymbolIsSampledFromOneLuminancePlaneInOnePassOnly() throws {
        var attempted = AttemptedGrids()
        let plane = AttemptedGrids.Sampling.luminance(scale: 1, inverted: false, highlightsLowered: false)
        #expect(attempted.insert(try Self.grid(shiftedBy: 0), scale: 1, sampling: plane, pass: 1))
        // The same pass's next grid over the symbol, two modules off, is still sampled...
        #expect(attempted.insert(try Self.grid(shiftedBy: 8), scale: 1, sampling: plane, pass: 1))
        // ...another pass's is not, on the same plane; on another plane (the negative, or the plane with its bright
        // spots lowered), or of another dimension, it is.
        #expect(!attempted.insert(try Self.grid(shiftedBy: 4), scale: 1, sampling: plane, pass: 2))
        #expect(attempted.insert(try Self.grid(shiftedBy: 4), scale: 1, sampling: .luminance(scale: 1, inverted: true, highlightsLowered: false),
                                 pass: 2))
        // The plane with its bright spots lowered is another plane.
        #expect(attempted.insert(try Self.grid(shiftedBy: 4), scale: 1, sampling: .luminance(scale: 1, inverted: false, highlightsLowered: true),
                                 pass: 3))
        #expect(attempted.insert(try Self.grid(shiftedBy: 4, dimension: 25), scale: 1, sampling: plane, pass: 2))
    }

    /// A search for damaged finder patterns can come before the other thresholds (a lone pair of patterns at full
    /// scale): its grids over a symbol, hung on a damaged pattern's centre, must not keep a later pass's from
    /// being sampled there; the later pass's still keep a later search's out.
    @Test func gridsThroughADamagedPatternDoNotStandForALaterPasssGrids() throws {
        var attempted = AttemptedGrids()
        let plane = AttemptedGrids.Sampling.luminance(scale: 1, inverted: false, highlightsLowered: false)
        #expect(attempted.insert(try Self.grid(shiftedBy: 0, dimension: 25), scale: 1, sampling: plane, pass: 2, throughDamagedPattern: true))
        #expect(!attempted.insert(try Self.grid(shiftedBy: 1, dimension: 25), scale: 1, sampling: plane, pass: 3, throughDamagedPattern: true))
        #expect(attempted.insert(try Self.grid(shiftedBy: 1, dimension: 25), scale: 1, sampling: plane, pass: 4))
        #expect(!attempted.insert(try Self.grid(shiftedBy: 2, dimension: 25), scale: 1, sampling: plane, pass: 5))
        #expect(!attempted.insert(try Self.grid(shiftedBy: 2, dimension: 25), scale: 1, sampling: plane, pass: 6, throughDamagedPattern: true))
    }

    @Test func timingScoreSeparatesRightAndWrongDimensions() throws {
        let code = try QRCode.encode("timing", options: .version(5))
        var scene = SyntheticScene(width: 300, height: 300)
        scene.place(code.modules, center: Point(150, 150), moduleSize: 6, degrees: 0)
        let binary = BlockBinarizer.binarize(plane(scene))
        let side = Double(code.size) * 6, origin = 150 - side / 2
        func grid(dimension: Int) throws -> SamplingGrid {
            let d = Double(dimension)
            let transform = try #require(PerspectiveTransform(
                from: [Point(0, 0), Point(d, 0), Point(d, d), Point(0, d)],
                to: [Point(origin, origin), Point(origin + side, origin), Point(origin + side, origin + side), Point(origin, origin + side)]))
            return SamplingGrid(dimension: dimension, transform: transform)
        }
        let right = try grid(dimension: code.size), wrong = try grid(dimension: code.size + 4)
        #expect(GridCheck.timingScore(right, binary: binary) == 1)
        #expect(GridCheck.timingScore(right, binary: binary, minimum: 0.75) == 1)
        let full = GridCheck.timingScore(wrong, binary: binary)
        #expect(full < 0.75)
        // With a threshold the read stops early; the score returned still falls short of it.
        let early = GridCheck.timingScore(wrong, binary: binary, minimum: 0.75)
        #expect(early < 0.75 && early <= full)
    }

    @Test func laterGridStagesAreFittedOnlyAfterAPromisingGrid() throws {
        let transform = try #require(PerspectiveTransform(from: [Point(0, 0), Point(1, 0), Point(1, 1), Point(0, 1)],
                                                          to: [Point(0, 0), Point(84, 0), Point(84, 84), Point(0, 84)]))
        let first = [SamplingGrid(dimension: 21, transform: transform), SamplingGrid(dimension: 25, transform: transform)]
        let refined = [SamplingGrid(dimension: 29, transform: transform)]
        final class Counter: @unchecked Sendable { var fitted = 0 }
        let counter = Counter()
        func candidates() -> GridCandidates {
            GridCandidates(stages: [{ first }, { counter.fitted += 1; return refined }])
        }

        // No grid of the first stage marked promising: the refined stage is never fitted.
        var unpromising = candidates()
        var seen: [Int] = []
        while let grid = unpromising.next() { seen.append(grid.dimension) }
        #expect(seen == [21, 25])
        #expect(counter.fitted == 0)

        var promising = candidates()
        var dimensions: [Int] = []
        while let grid = promising.next() {
            dimensions.append(grid.dimension)
            if grid.dimension == 25 { promising.markPromising() }
        }
        #expect(dimensions == [21, 25, 29])
        #expect(counter.fitted == 1)

        // A last stage follows whether or not a grid was marked, after every stage that is fitted.
        let meshes = [SamplingGrid(dimension: 33, transform: transform)]
        for marked in [false, true] {
            var candidates = GridCandidates(stages: [{ first }, { refined }], last: { meshes })
            var order: [Int] = [], lastStage: [Int] = []
            while let grid = candidates.next() {
                order.append(grid.dimension)
                if candidates.isInLastStage { lastStage.append(grid.dimension) }
                if marked { candidates.markPromising() }
            }
            #expect(order == (marked ? [21, 25, 29, 33] : [21, 25, 33]))
            #expect(lastStage == [33])
        }
    }

    @Test(arguments: [Point(0, 0), Point(0.7, -0.6), Point(-0.9, 0.4), Point(1.3, 1.1)])
    func alignmentPatternsAreCentredToAFractionOfAPixel(start offset: Point) throws {
        // Modules of 2 whole pixels: each pattern's core is two pixels wide, its middle on a pixel boundary.
        let code = try QRCode.encode("two-pixel modules", options: .version(7, level: .low))
        var scene = SyntheticScene(width: 120, height: 120)
        let d = Double(code.size)
        scene.place(code.modules, corners: [Point(10, 10), Point(10 + 2 * d, 10), Point(10 + 2 * d, 10 + 2 * d), Point(10, 10 + 2 * d)])
        let binary = BlockBinarizer.binarize(plane(scene))
        for (cx, cy) in [(22, 22), (38, 22), (22, 38), (38, 38)] {
            let truth = Point(10 + 2 * (Double(cx) + 0.5), 10 + 2 * (Double(cy) + 0.5))
            let found = try #require(AlignmentPatternFinder.find(in: binary, near: truth + offset, moduleSize: 2, radius: 4))
            #expect(found.distance(to: truth) < 0.25, "pattern (\(cx), \(cy)) found at \(found), not \(truth)")
        }
    }

    @Test func aLookAlikeFarFromTheBottomRightAlignmentPatternDoesNotPlaceTheGrid() throws {
        // A version 7 symbol whose bottom-right alignment pattern is lost (drawn light), with a look-alike
        // drawn in its data 7 modules to the left. The grid through the look-alike would misread the timing
        // patterns; the first grid must put the lost pattern where the symbol has it.
        let code = try QRCode.encode("a look-alike in the data", options: .version(7, level: .high))
        var modules = code.modules
        let d = Double(code.size), size = 6.0, origin = 40.0
        for y in 36...40 { for x in 36...40 { modules[x, y] = false } }
        for y in 36...40 { for x in 29...33 { modules[x, y] = max(abs(x - 31), abs(y - 38)) != 1 } }
        var scene = SyntheticScene(width: 350, height: 350)
        scene.place(modules, corners: [Point(origin, origin), Point(origin + d * size, origin),
                                       Point(origin + d * size, origin + d * size), Point(origin, origin + d * size)])
        let binary = BlockBinarizer.binarize(plane(scene))
        // The symbol's own finders: its data also mimics a few finder patterns, which are not this test's subject.
        let finders = [Point(3.5, 3.5), Point(d - 3.5, 3.5), Point(3.5, d - 3.5)].map { Point(origin, origin) + $0 * size }
        let patterns = FinderPatternFinder.find(in: binary, rowStep: 1).filter { pattern in
            finders.contains { $0.distance(to: pattern.center) < size }
        }
        let set = try #require(FinderPatternGrouper.sets(from: patterns).first)
        let cache = FinderCorners.Cache()
        var grids = SymbolLocator.grids(for: SymbolLocator.reoriented(set, in: binary, cache: cache), in: binary, cache: cache)
        let next = grids.next()
        let first = try #require(next)
        let truth = Point(origin + 38.5 * size, origin + 38.5 * size)
        #expect(first.pixel(38.5, 38.5).distance(to: truth) < size, "placed at \(first.pixel(38.5, 38.5)), not \(truth)")
    }

    @Test func alignmentGridCorrectsAnOffTransformUnderPerspective() throws {
        // A version 40 symbol with strong perspective (modules from about 4 to 6 px). The transform given
        // to the piecewise grid is off by two modules at the far corner; every alignment pattern must be
        // found where the symbol really has it.
        let code = try QRCode.encode(String(repeating: "PERSPECTIVE ", count: 60), options: .version(40))
        let corners = [Point(120, 90), Point(860, 140), Point(1010, 1000), Point(70, 930)]
        var scene = SyntheticScene(width: 1080, height: 1080)
        scene.place(code.modules, corners: corners)
        let binary = BlockBinarizer.binarize(plane(scene))
        let d = Double(code.size)
        let square = [Point(0, 0), Point(d, 0), Point(d, d), Point(0, d)]
        let truth = try #require(PerspectiveTransform(from: square, to: corners))
        let off = try #require(PerspectiveTransform(from: square, to: [corners[0], corners[1], corners[2] + Point(10, -8), corners[3]]))
        let version = try #require(Version(40))
        let tiles = try #require(SymbolLocator.tiles(binary, version: version, transform: off, moduleSize: 5))
        let grid = SamplingGrid(dimension: code.size, transform: off, tiles: tiles)
        for cy in version.alignmentPatternCenters {
            for cx in version.alignmentPatternCenters {
                let centre = Point(Double(cx) + 0.5, Double(cy) + 0.5)
                let error = grid.pixel(centre.x, centre.y).distance(to: truth.apply(centre))
                #expect(error < 0.5 * truth.moduleSize(at: centre), "alignment pattern (\(cx), \(cy)) off by \(error) px")
            }
        }
    }

    @Test func alignmentGridFromHalfItsPatterns() throws {
        // The symbol and off transform above, with the 24 alignment patterns of the bottom-left quarter blotted
        // out (as blur or a stain there loses them): the 22 still found, under half of the 46, place the grid
        // better than the one homography, and the blotted ones lie where the homography fitted to those found
        // puts them.
        let code = try QRCode.encode(String(repeating: "PERSPECTIVE ", count: 60), options: .version(40))
        let version = try #require(Version(40))
        let centres = version.alignmentPatternCenters
        let last = centres.count - 1
        var modules = code.modules
        for (j, cy) in centres.enumerated() where j >= 2 {
            for (i, cx) in centres.enumerated() where i <= 4 && !(i == 0 && j == last) {
                for y in (cy - 2)...(cy + 2) { for x in (cx - 2)...(cx + 2) { modules[x, y] = true } }
            }
        }
        let corners = [Point(120, 90), Point(860, 140), Point(1010, 1000), Point(70, 930)]
        var scene = SyntheticScene(width: 1080, height: 1080)
        scene.place(modules, corners: corners)
        let binary = BlockBinarizer.binarize(plane(scene))
        let d = Double(code.size)
        let square = [Point(0, 0), Point(d, 0), Point(d, d), Point(0, d)]
        let truth = try #require(PerspectiveTransform(from: square, to: corners))
        let off = try #require(PerspectiveTransform(from: square, to: [corners[0], corners[1], corners[2] + Point(10, -8), corners[3]]))
        let tiles = try #require(SymbolLocator.tiles(binary, version: version, transform: off, moduleSize: 5))
        let grid = SamplingGrid(dimension: code.size, transform: off, tiles: tiles)
        for cy in centres {
            for cx in centres {
                let centre = Point(Double(cx) + 0.5, Double(cy) + 0.5)
                let error = grid.pixel(centre.x, centre.y).distance(to: truth.apply(centre))
                #expect(error < 0.5 * truth.moduleSize(at: centre), "alignment pattern (\(cx), \(cy)) off by \(error) px")
            }
        }
    }

    @Test func alignmentGridFollowsAPageBulgingAtItsFarCorner() throws {
        // A version 10 symbol (alignment patterns at modules 6, 28 and 50) whose page bulges towards its
        // bottom-right corner, the push growing as the fourth power of both coordinates: the far alignment
        // pattern lies about two modules from where its three neighbours' parallelogram puts it, while the
        // finders stay where the flat homography has them.
        let code = try QRCode.encode(String(repeating: "BULGE ", count: 30), options: .version(10, level: .low))
        let n = Double(code.size), size = 5.0, origin = 40.0, strength = 3.5
        func push(_ u: Double, _ v: Double) -> Double { strength * pow(min(max(u / n, 0), 1), 4) * pow(min(max(v / n, 0), 1), 4) }
        var scene = SyntheticScene(width: 420, height: 420)
        scene.place(code.modules, region: Rect(x: 0, y: 0, width: 420, height: 420)) { p in
            let u = (p.x - origin) / size, v = (p.y - origin) / size
            let pushed = push(u, v)
            return Point(u - pushed, v - pushed)
        }
        let binary = BlockBinarizer.binarize(plane(scene))
        let square = [Point(0, 0), Point(n, 0), Point(n, n), Point(0, n)]
        let flat = try #require(PerspectiveTransform(from: square, to: square.map { Point(origin + $0.x * size, origin + $0.y * size) }))
        let version = try #require(Version(10))
        let tiles = try #require(SymbolLocator.tiles(binary, version: version, transform: flat, moduleSize: size))
        let grid = SamplingGrid(dimension: code.size, transform: flat, tiles: tiles)
        for cy in version.alignmentPatternCenters {
            for cx in version.alignmentPatternCenters {
                let centre = Point(Double(cx) + 0.5, Double(cy) + 0.5)
                // Where the bulge puts the centre: the module coordinate plus the push at the pixel it lands on.
                var pushed = 0.0
                for _ in 0..<20 { pushed = push(centre.x + pushed, centre.y + pushed) }
                let truth = Point(origin + (centre.x + pushed) * size, origin + (centre.y + pushed) * size)
                let error = grid.pixel(centre.x, centre.y).distance(to: truth)
                #expect(error < 0.5 * size, "alignment pattern (\(cx), \(cy)) off by \(error) px")
            }
        }
    }
}

/// A version 3 symbol (29 modules, `size` px each, at (`origin`, `origin`), in a square picture `width` px
/// wide; or the symbol `code`) drawn
/// with its middle bulged by `bulge` modules along both axes, falling to nothing at its edges, as cloth
/// pulled over something; and the homography of the flat symbol, which still fits its finder patterns and
/// corners. The picture around the symbol's quiet zone of `quietZone` modules is `surround`.
private func bulgedSymbol(_ bulge: Double, size: Double = 8, width: Int = 360, quietZone: Int = 4, surround: UInt8 = 200,
                          dark: UInt8 = 20, light: UInt8 = 235, code given: QRCode? = nil, origin: Double = 60)
    throws -> (code: QRCode, scene: SyntheticScene, flat: PerspectiveTransform)
{
    let code = try given ?? QRCode.encode("cloth bent over a knee", options: .version(3, level: .low))
    let n = Double(code.size)
    var scene = SyntheticScene(width: width, height: width, background: surround)
    // Pixel to module coordinates: the flat grid, pushed by the bulge (zero at the symbol's edges).
    scene.place(code.modules, region: Rect(x: 0, y: 0, width: Double(width), height: Double(width)), quietZone: quietZone,
                dark: dark, light: light) { p in
        let u = (p.x - origin) / size, v = (p.y - origin) / size
        let push = bulge * sin(Double.pi * min(max(u / n, 0), 1)) * sin(Double.pi * min(max(v / n, 0), 1))
        return Point(u - push, v - push)
    }
    let square = [Point(0, 0), Point(n, 0), Point(n, n), Point(0, n)]
    let flat = try #require(PerspectiveTransform(from: square, to: square.map { Point(origin + $0.x * size, origin + $0.y * size) }))
    return (code, scene, flat)
}

/// A version 3 symbol on a label round a bottle whose axis runs along the symbol's columns: seen from the
/// front, the label spans `angle` radians of the bottle, so modules narrow towards its edges; 8 px per
/// module in the middle.
private func bottleLabel(_ angle: Double) throws -> (code: QRCode, scene: SyntheticScene) {
    let code = try QRCode.encode("wrapped round a bottle", options: .version(3, level: .low))
    let n = Double(code.size), size = 8.0
    let width = Int(n * size) + 160
    var scene = SyntheticScene(width: width, height: width)
    let radius = n * size / 2 / sin(angle / 2), centre = Double(width) / 2
    scene.place(code.modules, region: Rect(x: 0, y: 0, width: Double(width), height: Double(width))) { p in
        let s = (p.x - centre) / radius
        guard abs(s) < 1 else { return Point(-100, -100) }
        return Point(n * (0.5 + asin(s) / angle), (p.y - 80) / size)
    }
    return (code, scene)
}

/// `code` on a label round a can, seen from `distance` can radii away, level with a point `above` px above the
/// symbol's middle: the label starts `start` radians left of the can's front and runs on for `span` radians,
/// so its modules narrow towards the can's side and, seen from above, its rows curve. `size` px per module at
/// the can's front, in a square picture `width` px wide; `turned`, the symbol drawn a quarter turn round.
private func canLabel(_ code: QRCode, start: Double, span: Double, above: Double, turned: Bool = false,
                      distance radii: Double = 6, size: Double = 8, width: Int = 320) -> SyntheticScene {
    let n = Double(code.size)
    let radius = n * size / span, distance = radii * radius
    let centre = Point(Double(width) / 2, Double(width) / 2 + above)
    var scene = SyntheticScene(width: width, height: width)
    scene.place(code.modules, region: Rect(x: 0, y: 0, width: Double(width), height: Double(width))) { p in
        // The angle round the can that projects to p.x (on the side facing the camera), then the height there.
        let x = p.x - centre.x, y = p.y - centre.y
        let a = distance * radius, b = x * radius, c = x * (distance + radius)
        let r = (a * a + b * b).squareRoot()
        guard abs(c) < r else { return Point(-100, -100) }
        let angle = asin(c / r) - atan2(b, a)
        let depth = radius * (1 - cos(angle))
        let u = (angle - start) / span * n, v = (y * (distance + depth) / distance + above) / size + n / 2
        return turned ? Point(n - v, u) : Point(u, v)
    }
    return scene
}

/// Modules of `grid` sampled from `binary` that differ from the symbol's.
private func moduleErrors(_ grid: SamplingGrid, _ binary: BinaryImage, _ code: QRCode) -> Int {
    let sampled = ModuleSampler.sample(grid, binary: binary)
    return (0..<code.size).reduce(0) { sum, y in sum + (0..<code.size).count { x in sampled[x, y] != code.modules[x, y] } }
}

/// `code` drawn sheared as a symbol seen steeply and turned to the tilt (as in photos of a code on a door
/// taken from beside it), and the place of each point of the symbol in module coordinates. A module steps
/// (1.57, −3.64) px along its rows and (1.22, 6.55) px down its columns.
func shearedScene(_ code: QRCode) -> (scene: SyntheticScene, module: (Double, Double) -> Point) {
    let origin = Point(60, 170), along = Point(1.57, -3.64), down = Point(1.22, 6.55)
    func module(_ x: Double, _ y: Double) -> Point { origin + along * x + down * y }
    let n = Double(code.size)
    var scene = SyntheticScene(width: 200, height: 400)
    scene.place(code.modules, corners: [module(0, 0), module(n, 0), module(n, n), module(0, n)])
    return (scene, module)
}

@Suite("Warped symbols")
struct GridRefinementTests {
    @Test func refinementFollowsABulgeNoHomographyFits() throws {
        let (code, scene, flat) = try bulgedSymbol(1)
        let binary = BlockBinarizer.binarize(plane(scene))
        let grid = SamplingGrid(dimension: code.size, transform: flat)
        // Off by up to a module in the middle, the flat grid reads far more modules wrong than the
        // symbol's 15 error-correction codewords can repair.
        #expect(moduleErrors(grid, binary, code) > 80)
        let refined = try #require(GridRefinement.refined(grid, binary: binary))
        #expect(moduleErrors(refined, binary, code) <= 3)
        #expect(QRCodeReader().read(plane(scene)).results.map(\.text) == ["cloth bent over a knee"])
    }

    @Test func aSymbolRefinedInVainUnderLocalThresholdsIsRefinedAgainUnderTheGlobalOne() throws {
        // Small blurred modules with a narrow quiet zone on a near-black surround: near the surround the
        // local thresholds sink and thin the dark modules, so the edges the refinement follows move and
        // the refined grid misses under them; the global threshold keeps the modules whole.
        var scene = try bulgedSymbol(0.7, size: 5.5, width: 300, quietZone: 2, surround: 5, dark: 60, light: 230).scene
        scene.blur(radius: 1, passes: 3)
        #expect(QRCodeReader().read(plane(scene)).results.map(\.text) == ["cloth bent over a knee"])
    }

    @Test func aBentDenseSymbolOfTwoPixelModulesReads() throws {
        // A version 25 symbol of 2-pixel modules, its middle bulged by three modules: no single homography
        // fits it, so its alignment patterns place the grid, and each must be found to a fraction of a pixel
        // (a quarter of a module is half a pixel here).
        let text = String(repeating: "paper bent in the hand ", count: 40)
        let code = try QRCode.encode(text, options: .version(25, level: .medium))
        let (_, scene, _) = try bulgedSymbol(3, size: 2, width: 300, code: code, origin: 20)
        #expect(QRCodeReader().read(plane(scene)).results.map(\.text) == [text])
    }

    @Test func anyGridOverNoiseIsRefinedOrRefusedWithoutCrashing() {
        // Noise, random (also wild and degenerate) grids: the refinement must return quickly either way.
        var random = SeededGenerator(seed: 7)
        let pixels = (0..<(200 * 200)).map { _ in UInt8.random(in: 0...255, using: &random) }
        let binary = BlockBinarizer.binarize(LuminancePlane(width: 200, height: 200, pixels: pixels))
        for _ in 0..<200 {
            let size = 21 + 4 * Int.random(in: 0...39, using: &random)
            let d = Double(size)
            let corners = (0..<4).map { _ in Point(Double.random(in: -400...600, using: &random), Double.random(in: -400...600, using: &random)) }
            guard let transform = PerspectiveTransform(from: [Point(0, 0), Point(d, 0), Point(d, d), Point(0, d)], to: corners)
            else { continue }
            if let refined = GridRefinement.refined(SamplingGrid(dimension: size, transform: transform), binary: binary) {
                #expect(refined.isTiled && refined.dimension == size)
            }
        }
    }

    @Test func aPiecewiseGridNamesTheHomographyOfEveryPoint() throws {
        let (code, scene, flat) = try bulgedSymbol(1)
        let grid = try #require(GridRefinement.refined(SamplingGrid(dimension: code.size, transform: flat),
                                                       binary: BlockBinarizer.binarize(plane(scene))))
        #expect(grid.isTiled)
        // Inside the symbol, on anchors and beyond its edges (where the outer cells extrapolate).
        for (x, y) in [(0.5, 0.5), (7.25, 14.5), (14.5, 7.25), (28.9, 28.9), (-1.0, 15.0), (31.0, -2.0)] {
            let piece = grid.piece(at: x, y)
            #expect(piece.x.contains(x) && piece.y.contains(y))
            #expect(piece.transform.apply(Point(x, y)).distance(to: grid.pixel(x, y)) < 1e-9)
        }
    }

    @Test func aRowWalkPlacesEveryModuleWherePixelDoes() throws {
        let (code, scene, flat) = try bulgedSymbol(1)
        let tiled = try #require(GridRefinement.refined(SamplingGrid(dimension: code.size, transform: flat),
                                                        binary: BlockBinarizer.binarize(plane(scene))))
        // Rows that start outside the symbol and cross every cell (and the plain grid as well).
        for grid in [tiled, SamplingGrid(dimension: code.size, transform: flat)] {
            for y in [-0.5, 0.5, 7.5, 14.25, Double(code.size) - 0.5, Double(code.size) + 0.5] {
                var visited = 0
                grid.forEachPixel(alongRow: y, from: -0.5, count: code.size + 2) { k, pixel in
                    #expect(pixel == grid.pixel(-0.5 + Double(k), y))
                    visited += 1
                }
                #expect(visited == code.size + 2)
            }
        }
    }

    @Test func timingPatternsRedrawTheColumnsOfALabelRoundABottle() throws {
        let (code, scene) = try bottleLabel(2)
        let binary = BlockBinarizer.binarize(plane(scene))
        let set = try #require(FinderPatternGrouper.sets(from: FinderPatternFinder.find(in: binary)).first)
        var grids = SymbolLocator.grids(for: set, in: binary)
        let first = grids.next()
        let grid = try #require(first)
        // The finder-fitted grid reads over 80 modules wrong (modules at the label’s edges are about half
        // as wide as in its middle); redrawn through the timing patterns, next to nothing.
        #expect(grid.dimension == code.size && moduleErrors(grid, binary, code) > 80)
        let aligned = try #require(TimingAlignment.aligned(grid, binary: binary))
        #expect(moduleErrors(aligned, binary, code) <= 5)
        #expect(QRCodeReader().read(plane(scene)).results.map(\.text) == ["wrapped round a bottle"])
    }

    @Test(arguments: [false, true])
    func aMeshOnTheFinderPatternsFollowsALabelRoundACan(turned: Bool) throws {
        let code = try QRCode.encode("hudson bay", options: .version(1, level: .low))
        let scene = canLabel(code, start: -Double.pi / 6, span: Double.pi / 2, above: 150, turned: turned)
        let binary = BlockBinarizer.binarize(plane(scene))
        let set = try #require(FinderPatternGrouper.sets(from: FinderPatternFinder.find(in: binary)).first)
        var grids = SymbolLocator.grids(for: set, in: binary)
        let firstGrid = grids.next()
        let first = try #require(firstGrid)
        var mesh: SamplingGrid?
        while mesh == nil, let grid = grids.next() {
            if grids.isInLastStage { mesh = grid }
        }
        let pinned = try #require(mesh)
        #expect(pinned.isTiled && pinned.dimension == code.size)
        // The homography fitted to the three finders reads over 100 of the 441 modules wrong; the mesh
        // pinned to their squares under a third as many, fewer than that grid redrawn through the timing
        // patterns or moved onto the module edges.
        let errors = moduleErrors(first, binary, code), pinnedErrors = moduleErrors(pinned, binary, code)
        #expect(errors > 100 && pinnedErrors * 3 < errors)
        for other in [TimingAlignment.aligned(first, binary: binary), GridRefinement.refined(first, binary: binary)] {
            if let other { #expect(moduleErrors(other, binary, code) > pinnedErrors) }
        }
        #expect(QRCodeReader().read(plane(scene)).results.map(\.text) == ["hudson bay"])
    }

    @Test(arguments: [false, true])
    func aCylinderPlacesALargeSymbolRoundACan(turned: Bool) throws {
        // A version 10 symbol spanning 1.6 radians of a can seen from four radii, from above: the homographies
        // miss its bulging middle by modules, and the mesh pinned to the finders is only for small symbols.
        // Turned, the side across the bend measures the symbol 77 modules wide, and no version information reads.
        let text = "https://example.com/a-label-round-a-can?batch=4711"
        let code = try QRCode.encode(text, options: .version(10, level: .medium))
        let scene = canLabel(code, start: -0.8, span: 1.6, above: 80, turned: turned, distance: 4, size: 5, width: 420)
        let binary = BlockBinarizer.binarize(plane(scene))
        // The symbol's finders lie farthest apart; data forms smaller false triples.
        let sets = FinderPatternGrouper.sets(from: FinderPatternFinder.find(in: binary))
        func spread(_ set: FinderPatternSet) -> Double {
            set.topLeft.center.distance(to: set.topRight.center) + set.topLeft.center.distance(to: set.bottomLeft.center)
        }
        let set = try #require(sets.max { spread($0) < spread($1) })
        var errors: [Int] = [], cylinderErrors: [Int] = []
        var grids = SymbolLocator.grids(for: set, in: binary)
        grids.markPromising()
        while let grid = grids.next() {
            let wrong = grid.dimension == code.size ? moduleErrors(grid, binary, code) : code.size * code.size
            if grids.isInLastStage { cylinderErrors.append(wrong) } else { errors.append(wrong) }
        }
        #expect(!errors.isEmpty && errors.allSatisfy { $0 > 300 })
        #expect(cylinderErrors.contains { $0 <= 5 })
        #expect(QRCodeReader().read(plane(scene)).results.map(\.text) == [text])
    }

    @Test func aCylinderFittedToTheFinderPatternsPlacesTheBulgeBetweenThem() throws {
        // Module coordinates of a symbol 57 modules wide round a cylinder, its half-width spanning one radian,
        // seen by a pinhole camera four radii from the axis, from a little above.
        let d = 57.0, half = d / 2
        func seen(_ x: Double, _ y: Double) -> Point {
            let angle = (x - half) / half, radius = half
            let across = radius * sin(angle), depth = radius * (1 - cos(angle)), along = y - half
            let (c, s) = (cos(0.3), sin(0.3))
            let height = c * along - s * depth, distance = 4 * radius + s * along + c * depth
            return Point(300 + 400 * across / distance, 300 + 400 * height / distance)
        }
        var source: [Point] = []
        for origin in [Point(0, 0), Point(d - 7, 0), Point(0, d - 7)] {
            source += [Point(0, 0), Point(7, 0), Point(7, 7), Point(0, 7), Point(3.5, 3.5)].map { origin + $0 }
        }
        let destination = source.map { seen($0.x, $0.y) }
        let weights = [Double](repeating: 1, count: source.count)
        let bend = CylinderProjection.Bend(dimension: 57, alongRows: true, halfAngle: 1)
        let projection = try #require(CylinderProjection(bend, from: source, to: destination, weights: weights))
        let flat = try #require(PerspectiveTransform.fitting(from: source, to: destination))
        for (x, y) in [(28.5, 28.5), (53.5, 53.5), (12.5, 40.5), (45.5, 6.5)] {
            #expect(projection.apply(x, y).distance(to: seen(x, y)) < 0.01)
        }
        // The homography through the same points misses the middle by two modules (3.5 px each there).
        #expect(flat.apply(Point(28.5, 28.5)).distance(to: seen(28.5, 28.5)) > 7)
        // Bent the other way round, or a third as much, the fit misses it too (by 12 and 2.5 px).
        for wrong in [CylinderProjection.Bend(dimension: 57, alongRows: false, halfAngle: 1),
                      CylinderProjection.Bend(dimension: 57, alongRows: true, halfAngle: 0.35)] {
            let missed = try #require(CylinderProjection(wrong, from: source, to: destination, weights: weights))
            #expect(missed.apply(28.5, 28.5).distance(to: seen(28.5, 28.5)) > 2)
        }
    }

    @Test func aGridOnItsModulesAlreadyIsLeftAlone() throws {
        let (code, scene, flat) = try bulgedSymbol(0)
        let binary = BlockBinarizer.binarize(plane(scene))
        let grid = SamplingGrid(dimension: code.size, transform: flat)
        #expect(moduleErrors(grid, binary, code) == 0)
        #expect(GridRefinement.refined(grid, binary: binary) == nil)
        #expect(TimingAlignment.aligned(grid, binary: binary) == nil)
    }
}

@Suite("Format, codewords and bitstream")
struct DecodingStageTests {
    @Test func formatInformationSurvivesThreeBitErrorsAndMirroring() throws {
        let code = try QRCode.encode("format", options: EncodingOptions(errorCorrectionLevel: .quartile, mask: 5))
        var modules = code.modules
        for (x, y) in FormatInformation.positions(size: code.size)[0].prefix(3) { modules[x, y].toggle() }
        let reading = try #require(FormatReader.readings(modules).first)
        #expect(reading.format == FormatInformation(level: .quartile, mask: MaskPattern.all[5]))
        #expect(!reading.mirrored)
        let mirrored = try #require(FormatReader.readings(code.modules.transposed()).first)
        #expect(mirrored.mirrored)
        #expect(mirrored.format.mask.rawValue == 5)
    }

    /// Readings of the orientation a symbol is not in are skipped when two bits worse than the best; no
    /// level and mask may lose its own orientation to that rule, as the symbol or as its mirror image.
    @Test func everyFormatDecodesInBothOrientations() throws {
        for level in ErrorCorrectionLevel.allCases {
            for mask in 0..<8 {
                let code = try QRCode.encode("format \(level) \(mask)", options: EncodingOptions(errorCorrectionLevel: level, mask: mask))
                let plain = SymbolDecoder.decode(code.modules)
                #expect(plain?.payload.text == "format \(level) \(mask)" && plain?.mirrored == false, "\(level) mask \(mask)")
                let mirrored = SymbolDecoder.decode(code.modules.transposed())
                #expect(mirrored?.payload.text == "format \(level) \(mask)" && mirrored?.mirrored == true, "\(level) mask \(mask) mirrored")
            }
        }
    }

    @Test func erasuresRescueABlockBeyondErrorCapacity() throws {
        let code = try QRCode.encode(String(repeating: "erasure ", count: 4), options: EncodingOptions(errorCorrectionLevel: .high, versions: 4...4))
        let template = SymbolTemplate.of(code.version)
        let layout = BlockLayout(version: code.version, level: .high)
        var modules = code.modules
        var confidence = [Float](repeating: 50, count: modules.storage.count)
        // Destroy more codewords per block than errors alone can fix, and mark them unreliable.
        let ecc = layout.errorCorrectionCodewordsPerBlock
        for block in layout.blockIndices() {
            for codeword in block.prefix(ecc / 2 + 2) {
                for bit in 0..<8 {
                    let p = Int(template.dataPositions[codeword * 8 + bit])
                    modules.storage[p] ^= UInt8(bit % 2)
                    confidence[p] = 1
                }
            }
        }
        #expect(SymbolDecoder.decode(modules) == nil)
        #expect(SymbolDecoder.decode(modules, confidence: confidence)?.payload.text == String(repeating: "erasure ", count: 4))
    }

    @Test func bitstreamOfEveryMode() throws {
        let segments: [Segment] = [try .eci(26), try .numeric("0123456789"), try .alphanumeric("AB-12"), .bytes(Array("ü!".utf8)),
                                   try .kanji("漢字")]
        let code = try QRCode.encode(segments: segments)
        let data = SymbolBuilder.dataCodewords(segments, header: StructuredAppendInfo(index: 1, count: 3, parity: 0x5A),
                                               version: code.version, level: code.errorCorrectionLevel)
        let payload = try BitstreamParser.parse(data, version: code.version)
        #expect(payload.text == "0123456789AB-12ü!漢字")
        #expect(payload.eciAssignments == [26])
        #expect(payload.charset == .utf8 && !payload.charsetGuessed)
        #expect(payload.structuredAppend == StructuredAppendInfo(index: 1, count: 3, parity: 0x5A))
        #expect(payload.modes == [.structuredAppend, .eci, .numeric, .alphanumeric, .byte, .kanji])
    }

    @Test func gs1SeparatorsInAlphanumericMode() throws {
        // FNC1 first position, then "01%10" in alphanumeric: % is the group separator.
        var bits = BitBuffer()
        bits.append(0b0101, bits: 4)
        try Segment.alphanumeric("01%10%%").write(to: &bits, version: .min)
        bits.append(0, bits: 4)
        let payload = try BitstreamParser.parse(bits.bytes + [UInt8](repeating: 0, count: 4), version: .min)
        #expect(payload.text == "01\u{1D}10%")
        #expect(payload.fnc1 == .gs1)
    }

    @Test func malformedBitstreamsAreErrorsNotCrashes() throws {
        // An undefined mode indicator (0110), and a byte segment claiming more bytes than exist.
        #expect(throws: BitstreamError.self) { try BitstreamParser.parse([0b0110_0000, 0], version: .min) }
        #expect(throws: BitstreamError.self) { try BitstreamParser.parse([0b0100_1111, 0b1111_0000], version: .min) }
        // All zeros (a flat area read under the right mask) is blank, not an empty text; an encoded empty text is padded.
        #expect(throws: BitstreamError.blank) { try BitstreamParser.parse([UInt8](repeating: 0, count: 108), version: Version(6) ?? .min) }
        let empty = SymbolBuilder.dataCodewords([], header: nil, version: .min, level: .low)
        #expect(try BitstreamParser.parse(empty, version: .min).text == "")
        var random = SeededGenerator(seed: 5)
        for _ in 0..<500 {
            let bytes = (0..<Int.random(in: 0...40, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            _ = try? BitstreamParser.parse(bytes, version: Version(Int.random(in: 1...40, using: &random)) ?? .min)
        }
    }

    @Test func charsetGuessing() throws {
        #expect(CharsetGuesser.guess(Array("plain".utf8)) == .utf8)
        #expect(CharsetGuesser.guess(Array("Grüße".utf8)) == .utf8)
        #expect(CharsetGuesser.guess(try #require(Charset.isoLatin1.encode("Grüße aus Köln"))) == .isoLatin1)
        #expect(CharsetGuesser.guess(try #require(Charset.shiftJIS.encode("日本語のテキスト"))) == .shiftJIS)
        #expect(CharsetGuesser.guess(try #require(Charset.gb18030.encode("中文二维码扫描"))) == .gb18030)
        #expect(CharsetGuesser.guess(try #require(Charset.gb18030.encode("价格：￥12.50"))) == .gb18030)
        // Half-width katakana pairs up like GB 2312 too; ZXing (and every peer) reads it as Shift_JIS.
        #expect(CharsetGuesser.guess([0xC3, 0xDE, 0xBB, 0xDE, 0xB2, 0xDD, 0x51, 0x52]) == .shiftJIS)
        // Accented letters stand alone between ASCII letters, so Latin-1 text does not pair up as GB 2312.
        #expect(CharsetGuesser.guess(try #require(Charset.isoLatin1.encode("Señor Müller, café"))) == .isoLatin1)
    }
}

@Suite("Reader results")
struct ReaderResultTests {
    /// The seeds' case: an Alipay and a WeChat code side by side.
    @Test func twoCodesYieldTwoResultsWithTheirCorners() throws {
        var scene = SyntheticScene(width: 520, height: 260)
        let alipay = try QRCode.encode("https://qr.alipay.com/fkx12345")
        let wechat = try QRCode.encode("wxp://f2f0abcdefg")
        scene.place(alipay.modules, center: Point(130, 130), moduleSize: 5)
        scene.place(wechat.modules, center: Point(390, 130), moduleSize: 5)
        let results = read(scene)
        #expect(Set(results.map(\.text)) == ["https://qr.alipay.com/fkx12345", "wxp://f2f0abcdefg"])
        for result in results {
            let code = result.text.hasPrefix("https") ? alipay : wechat
            let centre = Point(result.text.hasPrefix("https") ? 130 : 390, 130)
            let half = Double(code.size) * 5 / 2
            let expected = [Point(centre.x - half, centre.y - half), Point(centre.x + half, centre.y - half),
                            Point(centre.x + half, centre.y + half), Point(centre.x - half, centre.y + half)]
            for (corner, truth) in zip(result.corners.corners, expected) { #expect(corner.distance(to: truth) < 5) }
        }
    }

    /// A small code printed with its quiet zone in the middle of a larger one's data (zxing-cpp's qrcode-2/16):
    /// the larger code's level H corrects what the small one covers, and both are read, each with its corners.
    /// Found first, the small code had taken the larger one's finders, whose centre lies inside it, for itself.
    @Test func aCodePrintedInsideAnotherIsReadWithIt() throws {
        let outerText = "OUTER: the larger code, printed around another one"
        let outer = try QRCode.encode(outerText, options: EncodingOptions(errorCorrectionLevel: .high, versions: 6...6))
        let inner = try QRCode.encode("INNER")
        var scene = SyntheticScene(width: 340, height: 340)
        scene.place(outer.modules, center: Point(170, 170), moduleSize: 6)
        scene.place(inner.modules, center: Point(170, 170), moduleSize: 3, quietZone: 2)
        let results = read(scene)
        #expect(Set(results.map(\.text)) == [outerText, "INNER"])
        for result in results {
            let half = Double(result.text == "INNER" ? inner.size * 3 : outer.size * 6) / 2
            let expected = [Point(170 - half, 170 - half), Point(170 + half, 170 - half),
                            Point(170 + half, 170 + half), Point(170 - half, 170 + half)]
            for (corner, truth) in zip(result.corners.corners, expected) { #expect(corner.distance(to: truth) < 4) }
        }
    }

    /// Codes side by side with narrow quiet zones form false finder triples across both; at any rotation
    /// both codes still decode.
    @Test(arguments: [0.0, 90, 180, 270, 30, 45, 60, 120, 150, 200, 225, 300, 330])
    func neighbouringCodesBothDecodeInEveryOrientation(degrees: Double) throws {
        let texts = ["https://qr.alipay.com/fkx12345", "wxp://f2f0abcdefg-0123456789-0123456789-0123456789"]
        let small = try QRCode.encode(texts[0])
        let large = try QRCode.encode(texts[1])
        var scene = SyntheticScene(width: 700, height: 700)
        let angle = degrees * .pi / 180
        let centre = Point(350, 350)
        func rotated(_ p: Point) -> Point {
            let d = p - centre
            return centre + Point(d.x * cos(angle) - d.y * sin(angle), d.x * sin(angle) + d.y * cos(angle))
        }
        // Side by side, 4 px modules, quiet zones of 2 modules each touching.
        var left = 350 - Double(small.size + large.size + 4) * 2
        for code in [small, large] {
            let size = Double(code.size) * 4, top = 350 - size / 2
            let corners = [Point(left, top), Point(left + size, top), Point(left + size, top + size), Point(left, top + size)]
            scene.place(code.modules, corners: corners.map(rotated), quietZone: 2)
            left += size + 16
        }
        #expect(Set(read(scene).map(\.text)) == Set(texts))
    }

    /// A pale yellow code on white all but disappears in luminance, below even the low-contrast rule's noise
    /// level; its darkest (blue) channel keeps it.
    @Test func lightColouredCodesReadFromTheDarkestChannel() throws {
        let code = try QRCode.encode("pale yellow")
        var scene = SyntheticScene(width: 200, height: 200, background: 255)
        scene.place(code.modules, center: Point(100, 100), moduleSize: 6, quietZone: 4)
        // Dark modules become pale yellow (255, 255, 200): luminance 251 against 255, blue 200 against 255.
        var rgba = [UInt8]()
        for value in scene.pixels {
            let t = Double(value) / 255
            rgba += [255, 255, UInt8((200 + 55 * t).rounded()), 255]
        }
        let image = try RGBAImage(width: 200, height: 200, pixels: rgba)
        #expect(QRCodeReader(options: ReaderOptions(accuracy: .thorough)).read(GrayImage(image)).isEmpty)
        #expect(QRCodeReader(options: ReaderOptions(accuracy: .thorough)).read(image).map(\.text) == ["pale yellow"])
        // Fast accuracy makes one read only.
        #expect(QRCodeReader(options: ReaderOptions(accuracy: .fast)).read(image).isEmpty)
    }

    @Test func optionsLimitWhereAndHowMuch() throws {
        var scene = SyntheticScene(width: 520, height: 260)
        scene.place(try QRCode.encode("left").modules, center: Point(130, 130), moduleSize: 5)
        scene.place(try QRCode.encode("right").modules, center: Point(390, 130), moduleSize: 5)
        let right = read(scene, options: ReaderOptions(regionOfInterest: .normalized(Rect(x: 0.5, y: 0, width: 0.5, height: 1))))
        #expect(right.map(\.text) == ["right"])
        #expect(try #require(right.first).center.x > 300, "corners are in whole-image coordinates")
        let pixels = read(scene, options: ReaderOptions(regionOfInterest: .pixels(Rect(x: 0, y: 0, width: 260, height: 260))))
        #expect(pixels.map(\.text) == ["left"])
        #expect(read(scene, options: ReaderOptions(maximumCodes: 1)).count == 1)
        #expect(read(scene, options: ReaderOptions(accuracy: .fast)).count == 2)
    }

    /// A read tells whether its time budget cut it short; stopping at the codes asked for, or after a
    /// search that ran its course within the budget, is no time-out.
    @Test func aReadSaysWhenItsTimeBudgetCutItShort() throws {
        var scene = SyntheticScene(width: 520, height: 260)
        scene.place(try QRCode.encode("left").modules, center: Point(130, 130), moduleSize: 5)
        scene.place(try QRCode.encode("right").modules, center: Point(390, 130), moduleSize: 5)
        let image = try GrayImage(width: scene.width, height: scene.height, pixels: scene.pixels)
        func report(_ options: ReaderOptions) -> ReadReport { QRCodeReader(options: options).readReport(image) }

        let spent = report(ReaderOptions(timeBudget: .nanoseconds(1)))
        #expect(spent == ReadReport(results: [], timedOut: true))
        let ample = report(ReaderOptions(timeBudget: .seconds(60)))
        #expect(Set(ample.results.map(\.text)) == ["left", "right"])
        #expect(!ample.timedOut)
        let first = report(ReaderOptions(maximumCodes: 1, timeBudget: .seconds(60)))
        #expect(first.results.count == 1)
        #expect(!first.timedOut)
        // Nothing to find: every pass runs, and the search still ends within the budget.
        let blank = try GrayImage(width: 200, height: 200, pixels: [UInt8](repeating: 230, count: 200 * 200))
        #expect(QRCodeReader(options: ReaderOptions(timeBudget: .seconds(60))).readReport(blank) == ReadReport(results: [], timedOut: false))
    }

    @Test func structuredAppendPartsMergeWhenAllArePresent() throws {
        let text = String(repeating: "Linked symbols carry one message. ", count: 6)
        let parts = try QRCode.encodeStructuredAppend(text, count: 3)
        var scene = SyntheticScene(width: 900, height: 320)
        for (i, part) in parts.enumerated() {
            scene.place(part.modules, center: Point(Double(150 + i * 300), 160), moduleSize: 4)
        }
        let results = read(scene)
        #expect(results.count == 1)
        #expect(results.first?.text == text)
        #expect(results.first?.parts.map { $0.structuredAppend?.index } == [0, 1, 2])

        var two = SyntheticScene(width: 620, height: 320)
        for (i, part) in parts.prefix(2).enumerated() { two.place(part.modules, center: Point(Double(150 + i * 300), 160), moduleSize: 4) }
        #expect(read(two).count == 2, "an incomplete sequence stays separate")
    }

    /// Parts read one image at a time (the last one twice) join into the message.
    @Test func structuredAppendPartsReadFromSeparateImagesJoin() throws {
        let text = "Ünïcode split across symbols: " + String(repeating: "ÄÖÜ €", count: 12)
        let parts = try QRCode.encodeStructuredAppend(text, count: 3)
        let readings = try [2, 0, 1, 2].map { index in
            var scene = SyntheticScene(width: 320, height: 320)
            scene.place(parts[index].modules, center: Point(160, 160), moduleSize: 4)
            return try #require(read(scene).first)
        }
        let joined = ReadResult.joiningStructuredAppend(readings)
        #expect(joined.count == 1)
        #expect(joined.first?.text == text)
        #expect(joined.first?.parts.map { $0.structuredAppend?.index } == [0, 1, 2])
        #expect(ReadResult.joiningStructuredAppend(Array(readings.prefix(2))).count == 2, "an incomplete message stays separate")
    }

    @Test func garbageInputsGiveNothingAndNeverCrash() {
        var random = SeededGenerator(seed: 12)
        #expect(QRCodeReader().read(luminance: [], width: 0, height: 0).isEmpty)
        #expect(QRCodeReader().read(luminance: [0], width: 1, height: 1).isEmpty)
        #expect(QRCodeReader().read(luminance: [1, 2, 3], width: 5, height: 5).isEmpty, "mismatched sizes are refused")
        #expect(QRCodeReader().read(luminance: [], width: .max, height: 2).isEmpty, "a size that overflows is refused")
        #expect(QRCodeReader().read(luminance: [1], width: -1, height: -1).isEmpty)
        for (w, h) in [(11, 11), (40, 7), (300, 200), (64, 640)] {
            for fill in [UInt8(0), 255] {
                #expect(QRCodeReader().read(luminance: [UInt8](repeating: fill, count: w * h), width: w, height: h).isEmpty)
            }
            let noise = (0..<(w * h)).map { _ in UInt8.random(in: 0...255, using: &random) }
            #expect(QRCodeReader().read(luminance: noise, width: w, height: h).isEmpty)
        }
    }
}


