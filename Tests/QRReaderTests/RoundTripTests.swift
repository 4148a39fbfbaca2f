import Foundation
import QRCore
import QREncoder
import QRImage
import QRTestSupport
import Testing
@testable import QRReader

/// Reads a synthetic scene.
func read(_ scene: SyntheticScene, options: ReaderOptions = ReaderOptions()) -> [ReadResult] {
    QRCodeReader(options: options).read(luminance: scene.pixels, width: scene.width, height: scene.height)
}

/// The modules of a level L symbol holding `text`, its data region (all but nine modules from each edge) scrambled
/// beyond correction: its finders form a set that does not decode.
func scrambledSymbol(_ text: String) throws -> BitMatrix {
    var modules = try QRCode.encode(text, options: EncodingOptions(errorCorrectionLevel: .low)).modules
    for y in 9..<(modules.height - 9) { for x in 9..<(modules.width - 9) where (x * 7 + y * 3) % 5 < 3 { modules[x, y].toggle() } }
    return modules
}

/// A payload of `length` bytes that cycles through modes, deterministic per seed.
func payload(_ length: Int, seed: UInt64) -> String {
    var random = SeededGenerator(seed: seed)
    let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ abcdefghijklmnopqrstuvwxyz-./:ÄÖÜ€")
    return String((0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &random)] })
}

@Suite("Reader round trips on synthetic images")
struct RoundTripTests {
    /// Every version and level, straight, at 3 pixels per module.
    @Test(arguments: Version.range)
    func everyVersionAndLevel(_ number: Int) throws {
        for level in ErrorCorrectionLevel.allCases {
            let version = try #require(Version(number))
            let capacity = version.dataCodewords(level) - 3
            let text = payload(max(1, capacity / 2), seed: UInt64(number * 4 + level.rawValue))
            let code = try QRCode.encode(text, options: EncodingOptions(errorCorrectionLevel: level, versions: number...40))
            let side = Double(code.size + 8) * 3 + 10
            var scene = SyntheticScene(width: Int(side), height: Int(side))
            scene.place(code.modules, center: Point(side / 2, side / 2), moduleSize: 3)
            let results = read(scene)
            #expect(results.map(\.text) == [text], "version \(code.version)-\(level)")
            #expect(results.first?.version == code.version.number)
            #expect(results.first?.errorCorrectionLevel == level)
        }
    }

    @Test(arguments: 0..<8)
    func everyMask(_ mask: Int) throws {
        let text = "Mask \(mask): https://example.com/qr?id=\(mask * 7919)"
        let code = try QRCode.encode(text, options: EncodingOptions(versions: 3...40, mask: mask))
        var scene = SyntheticScene(width: 200, height: 200)
        scene.place(code.modules, center: Point(100, 100), moduleSize: 4)
        let results = read(scene)
        #expect(results.map(\.text) == [text])
        #expect(results.first?.mask == mask)
    }

    @Test func everyMode() throws {
        let cases: [(String, EncodingOptions)] = [
            ("0123456789012345678901234567890", EncodingOptions()),
            ("HELLO WORLD $%*+-./:", EncodingOptions()),
            ("Grüße, 二维码 😀", EncodingOptions()),
            ("漢字とカナのテキスト", EncodingOptions(kanji: true)),
            ("Ünïcödé with ECI", EncodingOptions(eci: 26)),
            ("Latin-1 café", EncodingOptions(eci: 3)),
            ("日本語テキスト", EncodingOptions(charset: .shiftJIS)),
            ("", EncodingOptions()),
        ]
        for (text, options) in cases {
            let code = try QRCode.encode(text, options: options)
            var scene = SyntheticScene(width: 220, height: 220)
            scene.place(code.modules, center: Point(110, 110), moduleSize: 4)
            let results = read(scene)
            #expect(results.map(\.text) == [text], "\(code.segments.map(\.mode))")
        }
    }

    @Test(arguments: [7.0, 30, 45, 90, 135, 180, 222, 270, 333])
    func anyRotation(_ degrees: Double) throws {
        let text = "Rotated \(degrees)°"
        let code = try QRCode.encode(text, options: EncodingOptions(errorCorrectionLevel: .quartile, versions: 4...40))
        var scene = SyntheticScene(width: 320, height: 320)
        scene.place(code.modules, center: Point(160, 160), moduleSize: 5, degrees: degrees)
        #expect(read(scene).map(\.text) == [text])
    }

    @Test(arguments: [0.15, 0.3, 0.45])
    func perspective(_ tilt: Double) throws {
        let text = "Perspective \(tilt)"
        let code = try QRCode.encode(text, options: EncodingOptions(versions: 6...40))
        var scene = SyntheticScene(width: 400, height: 400)
        scene.place(code.modules, center: Point(200, 200), moduleSize: 6, degrees: 17, tilt: tilt)
        #expect(read(scene).map(\.text) == [text])
    }

    /// Seen so steeply and turned to the tilt that its finder patterns read over 4:1 between rows and columns.
    @Test func sheared() throws {
        let code = try QRCode.encode("Seen from beside the door", options: EncodingOptions(errorCorrectionLevel: .medium, versions: 2...2))
        #expect(read(shearedScene(code).scene).map(\.text) == ["Seen from beside the door"])
    }

    @Test func blurNoiseAndShadow() throws {
        let text = payload(120, seed: 9)
        let code = try QRCode.encode(text, options: EncodingOptions(errorCorrectionLevel: .medium))
        var scene = SyntheticScene(width: 420, height: 420)
        scene.place(code.modules, center: Point(210, 210), moduleSize: 6, degrees: 11)
        scene.blur(radius: 2, passes: 2)
        scene.addNoise(amplitude: 30, seed: 3)
        scene.addShadow(factor: 0.35)
        #expect(read(scene).map(\.text) == [text])
    }

    /// Blur heavy enough for isolated modules to read as their neighbours' colour: small modules under a
    /// slight blur, and large ones out of focus. Only the sharpened luminance sample reads them.
    @Test(arguments: [(version: 4, moduleSize: 4.0, radius: 2, passes: 2), (version: 3, moduleSize: 10.0, radius: 5, passes: 3)])
    func heavyBlur(_ blur: (version: Int, moduleSize: Double, radius: Int, passes: Int)) throws {
        let text = payload(Version(blur.version).map { $0.dataCodewords(.medium) / 2 } ?? 1, seed: UInt64(blur.version))
        let code = try QRCode.encode(text, options: EncodingOptions(errorCorrectionLevel: .medium, versions: blur.version...blur.version))
        let side = Int(Double(code.size + 8) * blur.moduleSize) + 20
        var scene = SyntheticScene(width: side, height: side)
        scene.place(code.modules, center: Point(Double(side) / 2, Double(side) / 2), moduleSize: blur.moduleSize, degrees: 8)
        scene.blur(radius: blur.radius, passes: blur.passes)
        #expect(read(scene).map(\.text) == [text])
    }

    /// A close-up in dim light: modules over 50 px wide under strong sensor noise. The local thresholds see
    /// the finders' centre stones as flat at every pyramid level, and the noise breaks up the long runs of
    /// the global threshold at full scale; the pyramid's coarsest level, averaged quiet, reads globally, and so
    /// does the negative's light on dark (the build before read it under the first noise, not the second).
    @Test(arguments: [false, true], [UInt64(2), 1])
    func aNoisyCloseUp(lightOnDark: Bool, noiseSeed: UInt64) throws {
        let code = try QRCode.encode("hudson bay", options: .version(1, level: .low))
        var scene = SyntheticScene(width: 1200, height: 1200)
        scene.place(code.modules, center: Point(600, 600), moduleSize: 1200 / 23, quietZone: 1)
        scene.addGaussianNoise(deviation: 50, seed: noiseSeed)
        if lightOnDark { scene.invert() }
        let results = read(scene)
        #expect(results.map(\.text) == ["hudson bay"])
        #expect(results.first?.inverted == lightOnDark)
    }

    @Test func aLowContrastCodeUnderFadingLight() throws {
        let text = "Under glare"
        let code = try QRCode.encode(text, options: .version(3))
        #expect(read(lowContrastScene(code, width: 480, moduleSize: 10)).map(\.text) == [text])
    }

    /// Two codes side by side, the second printed three times larger in speckled ink: the local
    /// thresholds hollow its finders' wide centre stones, so only a pyramid level shows them, and the
    /// first code, found at full scale, leaves nothing that would ask for one.
    @Test func aCodePrintedLargerBesideAnotherOne() throws {
        let small = try QRCode.encode("ALIPAY 2088", options: .version(1))
        let large = try QRCode.encode("WECHAT wxp", options: .version(1))
        var scene = SyntheticScene(width: 1000, height: 800)
        scene.place(small.modules, center: Point(170, 400), moduleSize: 8)
        scene.place(large.modules, center: Point(640, 400), moduleSize: 24)
        scene.addInkTexture(amplitude: 80, seed: 3)
        #expect(Set(read(scene).map(\.text)) == ["ALIPAY 2088", "WECHAT wxp"])
        // The fast reader reads the pyramid too, as zxing-cpp's downscaling does.
        #expect(Set(read(scene, options: ReaderOptions(accuracy: .fast)).map(\.text)) == ["ALIPAY 2088", "WECHAT wxp"])
        // Without the shrunk copies, only the code found at full scale.
        #expect(read(scene, options: ReaderOptions(tryDownscale: false)).map(\.text) == ["ALIPAY 2088"])
    }

    /// A version 7 symbol of 1.7 px modules, slanted, beside a code of 5 px modules: its version information
    /// reads and its grids do not. The picture is read enlarged only around it (nothing found, the whole
    /// picture would be).
    @Test func aSmallDenseSymbolBesideALargerCode() throws {
        let large = try QRCode.encode("VERSION ONE", options: .version(1))
        let dense = try QRCode.encode(String(repeating: "ABC 123456789 ", count: 8), options: .version(7))
        var scene = SyntheticScene(width: 380, height: 500)
        scene.place(large.modules, center: Point(300, 120), moduleSize: 5)
        scene.place(dense.modules, center: Point(150, 300), moduleSize: 1.7, degrees: 8, tilt: 0.3)
        #expect(Set(read(scene).map(\.text)) == ["VERSION ONE", String(repeating: "ABC 123456789 ", count: 8)])
    }

    /// The pyramid's levels: none for small pictures, up to three for a phone's 12 MP photo, the coarsest
    /// kept at least 200 px across.
    @Test func pyramidLevelsByPictureSize() {
        #expect(QRCodeReader.pyramidFactors(width: 399, height: 4000).isEmpty)
        #expect(QRCodeReader.pyramidFactors(width: 640, height: 480) == [2])
        #expect(QRCodeReader.pyramidFactors(width: 1280, height: 800) == [2, 4])
        #expect(QRCodeReader.pyramidFactors(width: 1920, height: 1600) == [3, 6])
        #expect(QRCodeReader.pyramidFactors(width: 4032, height: 3024) == [3, 6, 12])
        for side in stride(from: 400, through: 6000, by: 7) {
            let factors = QRCodeReader.pyramidFactors(width: side, height: side + 1)
            #expect(factors.allSatisfy { side / $0 >= 200 })
        }
    }

    /// A small, pale code in a large photo under a bright spot: at full scale the local mean thresholds
    /// find finder patterns but no symbol, and its 3.3 px modules are too small for the pyramid's first
    /// level (1.1 px there); the midrange thresholds read it at full scale.
    @Test func aSmallPaleCodeUnderABrightSpotInALargePhoto() throws {
        let text = "SMALL CODE IN A BIG PHOTO"
        let code = try QRCode.encode(text, options: .version(2))
        var scene = SyntheticScene(width: 1800, height: 1800, background: 235)
        scene.place(code.modules, center: Point(900, 900), moduleSize: 3.3, degrees: 17, dark: 120)
        let half = Double(code.size) * 3.3 / 2
        scene.addBrightSpot(center: Point(900 - half * 0.6, 900 - half * 0.6), radius: half * 0.8, strength: 90)
        #expect(read(scene).map(\.text) == [text])
    }

    /// A faint code in a dim picture, its 16 levels of contrast halved towards the right by falling light: the
    /// usual local thresholds take its blocks for flat, no single threshold fits it, and the picture is too
    /// small for a pyramid. Spanning under a quarter of the grey scale, the picture is thresholded at full
    /// scale with only blocks flat to within noise set aside.
    @Test func aFaintCodeInADimPicture() throws {
        let text = "FAINT CODE"
        var scene = SyntheticScene(width: 320, height: 320, background: 96)
        scene.place(try QRCode.encode(text, options: .version(2)).modules, center: Point(160, 160), moduleSize: 8, degrees: 6,
                    dark: 84, light: 100)
        scene.addShadow(factor: 0.5)
        scene.addGaussianNoise(deviation: 2, seed: 1)
        #expect(LuminanceSurvey(plane(scene)).hasLowContrast)
        #expect(read(scene).map(\.text) == [text])
        #expect(read(scene, options: ReaderOptions(accuracy: .fast)).isEmpty)
    }

    /// A light-on-dark code under light falling to a tenth across it: the negative's local thresholds lose a
    /// finder on the dark side, so no set forms, but they show more finder patterns than the picture does;
    /// the midrange rule then reads the negative.
    @Test func aLightOnDarkCodeInFallingLight() throws {
        let text = "LIGHT ON DARK"
        var scene = SyntheticScene(width: 300, height: 300, background: 20)
        scene.place(try QRCode.encode(text, options: .version(2)).modules, center: Point(150, 150), moduleSize: 6, degrees: 8,
                    dark: 235, light: 20)
        scene.addShadow(factor: 0.1)
        #expect(read(scene).map(\.text) == [text])
        #expect(read(scene).first?.inverted == true)
        #expect(read(scene, options: ReaderOptions(accuracy: .fast)).isEmpty)
    }

    /// A dim code with highlights at its quiet zone's edge, a white stroke beside it and a lamp's reflection
    /// on its corner: the local thresholds beside them turn its paper dark and merge a finder into it.
    /// Thorough reading looks again with the highlights lowered to the picture's brightest ordinary level.
    @Test func aDimCodeBesideHighlights() throws {
        let text = "BRIGHT SPOT TEST 12345"
        let scene = dimSceneWithHighlights(try QRCode.encode(text, options: .version(2)))
        #expect(read(scene).map(\.text) == [text])
        #expect(read(scene, options: ReaderOptions(accuracy: .fast)).isEmpty)
    }

    /// A version 6 symbol has no version information, but about one in a hundred has data where a larger
    /// symbol's would lie that decodes to version 7 to 9, some with only 2 bit errors (as a version read
    /// beside the finders is trusted). Its timing patterns, which read perfectly at 41 modules, keep the
    /// symbol at its size.
    @Test(arguments: [
        (text: "V6 c34z50cdm1ie6vk30nxywb3i9h2rurbqmbq7s5wcp8on4ai7ws3eesmr57yh57ig", level: ErrorCorrectionLevel.low, degrees: 0.0),
        (text: "V6 6ma4ntys59yep6s7z4n3mvfrbazc749olazgjir6209zy00t0ea0kbsyi1eip8qhnp3e", level: .low, degrees: 25),
        (text: "?7ESPDScG.p9PMgeI&YZwkQHaOMD-nX5.VQI9B.TgZ0&O8dpQ5", level: .quartile, degrees: 0),
    ])
    func aVersion6SymbolWhoseDataReadsAsVersionInformation(_ code: (text: String, level: ErrorCorrectionLevel, degrees: Double)) throws {
        let symbol = try QRCode.encode(code.text, options: .version(6, level: code.level))
        let copies = VersionInformation.positions(size: symbol.size).map { copy in
            copy.enumerated().reduce(0) { bits, bit in symbol.modules[bit.element.x, bit.element.y] ? bits | 1 << bit.offset : bits }
        }
        #expect(copies.contains { VersionInformation.decode($0).map { (7...9).contains($0.version.number) } == true })
        var scene = SyntheticScene(width: 300, height: 300)
        scene.place(symbol.modules, center: Point(150, 150), moduleSize: 5, degrees: code.degrees)
        let results = read(scene)
        #expect(results.map(\.text) == [code.text])
        #expect(results.first?.version == 6)
    }

    /// A version 17 symbol (85 modules) whose version information reads as version 14 (73 modules) with 3 bit
    /// errors, as blur and a misfitted finder square can make it: the finder spacing's own estimate, three
    /// versions off, still competes, and its timing patterns keep it.
    @Test(arguments: [0.0, 33])
    func aVersionReadFarFromTheFinderSpacingDoesNotLoseTheSymbol(_ degrees: Double) throws {
        let text = payload(150, seed: 17)
        var modules = try QRCode.encode(text, options: .version(17, level: .low)).modules
        let misread = VersionInformation.codeword(for: try #require(Version(14))) ^ 0b1_0000_0001_0000_0001
        for copy in VersionInformation.positions(size: modules.width) {
            for (bit, position) in copy.enumerated() { modules[position.x, position.y] = misread >> bit & 1 == 1 }
        }
        var scene = SyntheticScene(width: 420, height: 420)
        scene.place(modules, center: Point(210, 210), moduleSize: 3, degrees: degrees)
        let results = read(scene)
        #expect(results.map(\.text) == [text])
        #expect(results.first?.version == 17)
    }

    @Test func mirroredAndInvertedCodes() throws {
        let text = "Mirror and invert"
        let code = try QRCode.encode(text)
        var scene = SyntheticScene(width: 200, height: 200)
        scene.place(code.modules.transposed(), center: Point(100, 100), moduleSize: 5)
        let mirrored = read(scene)
        #expect(mirrored.map(\.text) == [text])
        #expect(mirrored.first?.mirrored == true)

        var dark = SyntheticScene(width: 200, height: 200, background: 30)
        var inverse = code.modules
        for i in inverse.storage.indices { inverse.storage[i] ^= 1 }
        dark.place(inverse, center: Point(100, 100), moduleSize: 5, quietZone: 0)
        let inverted = read(dark)
        #expect(inverted.map(\.text) == [text])
        #expect(inverted.first?.inverted == true)
    }

    /// A light-on-dark version 26 symbol of 3 px modules, turned and blurred (made by
    /// Benchmarks/read-made-symbols-vs-zxing-cpp.py --view inverted): its finders form a set in the inverted
    /// picture's local thresholds that does not decode; the midrange rule's second look reads it.
    @Test func aLightOnDarkSymbolTheInvertedLocalThresholdsMissReadsAtMidrange() throws {
        let results = try readFixture("light-on-dark-v26-turned-blurred")
        #expect(results.count == 1)
        #expect(results.first?.text.hasPrefix("Gr:jCT/kv90O:cqPoFzo") == true)
        #expect(results.first?.version == 26)
        #expect(results.first?.inverted == true)
    }

    /// A synthetic page (Benchmarks/read-synthetic-vs-zxing-cpp.py --seed 3, page 138) of three codes, the third
    /// of 2.7 px modules, blurred and stored at low JPEG quality: its finders form a set whose grid reads as timing
    /// patterns, yet the local thresholds do not decode it, and its modules are too small for the pyramid's first
    /// level. With two codes found beside it, the midrange rule reads the region around it at full scale.
    @Test func aSymbolThatTimedButMissedBesideCodesFoundIsReadAroundAtMidrange() throws {
        let results = try readFixture("synthetic-page-3-138")
        #expect(results.count == 3)
        let third = try #require(results.first { $0.text.hasPrefix("UuVnyhcGADqQuk3EuQZt") })
        #expect(third.version == 8)
        // Placed in the page, not in the region read: its centre lies at the symbol's.
        #expect((third.center - Point(336, 1021)).length < 6)
    }

    /// A version 18 symbol of 3 px modules seen at 30 % perspective (Benchmarks/read-made-symbols-vs-zxing-cpp.py
    /// --view perspective --perspective 0.3, v18-28): the midrange rule at full scale shows two of its finders
    /// that no set explains, and only the local mean thresholds show its third, as a damaged pattern. The search
    /// for damaged patterns near the midrange pass's pair looks in those thresholds too.
    @Test func findersShownByTwoThresholdRulesCompleteOneSymbol() throws {
        let results = try readFixture("made-v18-perspective")
        #expect(results.count == 1)
        #expect(results.first?.text.hasPrefix("52g=X1tp5-zewEVEG4xC") == true)
        #expect(results.first?.version == 18)
    }

    /// What the reader with `options` finds in the fixture `name` (in Fixtures), a JPEG unless `type` says otherwise.
    private func readFixture(_ name: String, type: String = "jpg", options: ReaderOptions = ReaderOptions()) throws -> [ReadResult] {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: type, subdirectory: "Fixtures"))
        return QRCodeReader(options: options).read(try ImageDecoder().decodeGray(contentsOf: url.path).image)
    }

    /// A version 26 symbol of 3 px modules seen at 30 % perspective (Benchmarks/read-made-symbols-vs-zxing-cpp.py
    /// --view perspective --perspective 0.3, v26-32): it decodes once the first of its grids that fits well is
    /// moved onto the module edges, and not when only a grid timing convincingly is.
    @Test func aWellFittingGridIsRefinedWithoutTimingConvincingly() throws {
        let results = try readFixture("made-v26-perspective")
        #expect(results.count == 1)
        #expect(results.first?.text.hasPrefix("Ax&ssyWYOP-=fDiox8pm") == true)
        #expect(results.first?.version == 26)
    }

    /// A version 30 symbol made by `qr make` at 3 px per module in 30 % perspective (`read-made-symbols-vs-zxing-cpp.py
    /// --view perspective --perspective 0.3`, v30-7): it decodes from the grids through its finders' centres as
    /// their fitted squares place them, which lie under a fifth of a module from the centres the scan found.
    @Test func gridsThroughTheFittedFinderCentresAreTriedWhenTheyMoveALittle() throws {
        let results = try readFixture("made-v30-perspective")
        #expect(results.count == 1)
        #expect(results.first?.text.hasPrefix("6v3zN2QS64WdpWgRPzBM") == true)
        #expect(results.first?.version == 30)
    }

    /// A version 10 symbol made by `qr make` (level M), drawn at 3 px per module, turned by 2.6° and blurred by
    /// Pillow's Gaussian of radius 1.34 px: its grid times convincingly and its binary sample misses, and its
    /// luminance sample with erasures decodes. The fast reader, which samples no other grid from luminance, takes
    /// that one for a convincing grid (it read nothing here before).
    @Test func aBlurredSymbolWhoseGridTimesConvincinglyReadsFromLuminanceInBothReaders() throws {
        let text = "xwzyshoa0pdkjtq6uy1tip8vdwlui8d93v43nvx"
        for accuracy in ReaderOptions.Accuracy.allCases {
            let results = try readFixture("blurred-v10-3px", type: "png", options: ReaderOptions(accuracy: accuracy))
            #expect(results.map(\.text) == [text], "\(accuracy)")
            #expect(results.first?.version == 10)
        }
    }

    /// A dense symbol of modules about 2 px, turned and seen steeply from below (its far side under 1.5 px):
    /// its finders show, and the grid they fit samples too many modules wrong. Read enlarged twice, it decodes;
    /// light on dark too, from the negative enlarged.
    @Test(arguments: [(6, 1.8), (10, 2.0), (14, 2.2)], [false, true])
    func smallModulesInPerspectiveReadFromThePictureEnlarged(symbol: (version: Int, moduleSize: Double), lightOnDark: Bool) throws {
        let text = "enlarged \(symbol.version)"
        let modules = try QRCode.encode(text, options: .version(symbol.version)).modules
        let side = Int(Double(modules.width + 12) * symbol.moduleSize * 1.2)
        var scene = SyntheticScene(width: side, height: side)
        scene.place(modules, center: Point(Double(side) / 2, Double(side) / 2), moduleSize: symbol.moduleSize, degrees: 15, tilt: 0.35)
        if lightOnDark { scene.invert() }
        let results = read(scene)
        #expect(results.map(\.text) == [text])
        #expect(results.first?.version == symbol.version)
        #expect(results.first?.inverted == lightOnDark)
    }

    /// What a pass records of a set that times as a QR code and does not decode, beside a code it reads: one
    /// square on the picture's grid of blocks holding the symbol, for modules of its size only.
    @Test func aTimedSetThatDoesNotDecodeLeavesARegionAroundItsSymbol() throws {
        let modules = try scrambledSymbol("scrambled beyond correction")
        var scene = SyntheticScene(width: 500, height: 300)
        scene.place(modules, center: Point(330, 150), moduleSize: 4, degrees: 20)
        scene.place(try QRCode.encode("found").modules, center: Point(90, 150), moduleSize: 4)
        var session = ReadSession(options: ReaderOptions(), deadline: nil)
        session.scan(plane(scene), scale: 1, inverted: false, binarizer: .block(.usual))
        #expect(session.results.map(\.text) == ["found"])
        let regions = session.missedSymbolRegions(withModulesIn: 2..<8, inverted: false)
        #expect(regions.count == 1)
        let region = try #require(regions.first)
        // The symbol's 25 modules turned by 20° span 4 × 25 × (cos 20° + sin 20°) ≈ 128 px about its centre.
        #expect(region.minX <= 330 - 64 && region.maxX >= 330 + 64 && region.minY <= 150 - 64 && region.maxY >= 150 + 64)
        #expect(region.minX.truncatingRemainder(dividingBy: Double(BlockBinarizer.blockSize)) == 0)
        #expect(region.minY.truncatingRemainder(dividingBy: Double(BlockBinarizer.blockSize)) == 0)
        #expect(session.missedSymbolRegions(withModulesIn: 5..<8, inverted: false).isEmpty)
        // A symbol missed in the picture is not one missed in its negative.
        #expect(session.missedSymbolRegions(withModulesIn: 2..<8, inverted: true).isEmpty)
    }

    /// A speculative pass (the pyramid's second level, read with nothing seeming missing) records a set of finder
    /// patterns outside the codes found that did not decode, which asks for the midrange look on the first level
    /// (noncompliant/image001 blurred by 1 px: the second code's level showed two finders and its logo); its codes
    /// found and their own sets record nothing.
    @Test func aSpeculativePassRecordsASetThatDidNotDecode() throws {
        let modules = try scrambledSymbol("scrambled beyond correction")
        var scene = SyntheticScene(width: 500, height: 300)
        scene.place(try QRCode.encode("found").modules, center: Point(90, 150), moduleSize: 4)
        var alone = ReadSession(options: ReaderOptions(), deadline: nil)
        alone.scan(plane(scene), scale: 1, inverted: false, binarizer: .block(.usual), speculative: true)
        #expect(alone.results.map(\.text) == ["found"])
        #expect(!alone.speculativeSetsLeft)
        scene.place(modules, center: Point(330, 150), moduleSize: 4, degrees: 20)
        var beside = ReadSession(options: ReaderOptions(), deadline: nil)
        beside.scan(plane(scene), scale: 1, inverted: false, binarizer: .block(.usual), speculative: true)
        #expect(beside.results.map(\.text) == ["found"])
        #expect(beside.speculativeSetsLeft)
        // Not speculative, the pass records leftovers as usual instead.
        var usual = ReadSession(options: ReaderOptions(), deadline: nil)
        usual.scan(plane(scene), scale: 1, inverted: false, binarizer: .block(.usual))
        #expect(!usual.speculativeSetsLeft && usual.mayBeMissingCodes)
    }

    /// The negative is read by the picture's passes, under the same conditions: a faint code (26 grey levels of
    /// contrast), blurred and noisy, which the fast reader's passes (the full-scale pass and the pyramid) do not read,
    /// reads light on dark as it reads dark on light. The build before gave the negative fewer passes, and read these
    /// three light on dark not at all.
    @Test(arguments: [0, 3, 5] as [UInt64])
    func aFaintNoisyCodeReadsEitherWayRound(seed: UInt64) throws {
        let text = "light on dark, faded"
        var scene = SyntheticScene(width: 640, height: 480, background: 141)
        scene.place(try QRCode.encode(text).modules, center: Point(250, 240), moduleSize: 3, dark: 115, light: 141)
        scene.blur(radius: 1)
        scene.addGaussianNoise(deviation: 6, seed: seed)
        #expect(read(scene).map(\.text) == [text])
        #expect(read(scene, options: ReaderOptions(accuracy: .fast)).isEmpty)
        scene.invert()
        let negative = read(scene)
        #expect(negative.map(\.text) == [text])
        #expect(negative.first?.inverted == true)
    }

    /// In a dim picture, a code found asks for the midrange look: a code of 50 grey levels of contrast reads with the
    /// mean thresholds, and a fainter one beside it (25 levels) shows them none of its finders. The build before read
    /// only the first.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func aFainterCodeBesideOneFoundInADimPicture(seed: UInt64) throws {
        let scene = try twoCodesOnGreyPaper(seed: seed)
        #expect(Set(read(scene).map(\.text)) == ["first code", "second code"])
    }

    /// Dim, as the midrange look beside codes found takes it, spans more than the low-contrast passes' quarter of the
    /// grey scale: the same two codes with a dark edge in view (55 grey levels, 40 rows), which widens the picture's
    /// span to about 90 levels. The build before, asking for a quarter, read only the first.
    @Test(arguments: [1, 3, 4] as [UInt64])
    func aFainterCodeBesideOneFoundInADimPictureWithADarkEdge(seed: UInt64) throws {
        let scene = try twoCodesOnGreyPaper(seed: seed, darkEdge: 55)
        #expect(Set(read(scene).map(\.text)) == ["first code", "second code"])
    }

    /// "first code" and "second code" side by side in an 800 × 480 picture (centred a quarter of the width from either
    /// edge, 4 px modules) on paper of 130, their dark modules 80 and 105, blurred by 1 px, with Gaussian noise of 4
    /// levels drawn from `seed`; with a `darkEdge`, the bottom 40 rows at that level (a table's edge in view).
    private func twoCodesOnGreyPaper(seed: UInt64, darkEdge: UInt8? = nil) throws -> SyntheticScene {
        let width = 800, height = 480
        var scene = SyntheticScene(width: width, height: height, background: 130)
        if let darkEdge { scene.fill(Rect(x: 0, y: Double(height - 40), width: Double(width), height: 40), level: darkEdge) }
        for (text, x, dark) in [("first code", width / 4, 80 as UInt8), ("second code", width * 3 / 4, 105)] {
            scene.place(try QRCode.encode(text).modules, center: Point(Double(x), Double(height / 2)), moduleSize: 4,
                        dark: dark, light: 130)
        }
        scene.blur(radius: 1)
        scene.addGaussianNoise(deviation: 4, seed: seed)
        return scene
    }

    /// A small picture (no pyramid) whose dark modules are speckled from 60 to 210 grey levels, on paper of 250:
    /// every threshold at full scale breaks its finders into specks; at half size, averaged, they read.
    @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func textureInsideTheModulesOfASmallPictureReadsAtHalfSize(seed: UInt64) throws {
        var scene = SyntheticScene(width: 231, height: 231, background: 250)
        scene.place(try QRCode.encode("textured modules").modules, center: Point(115.5, 115.5), moduleSize: 7, dark: 60, light: 250)
        scene.addInkTexture(amplitude: 150, seed: seed)
        #expect(read(scene).map(\.text) == ["textured modules"])
        scene.invert()
        #expect(read(scene).map(\.text) == ["textured modules"])
    }

    /// One finder pattern left beside a code found, its ring a clean square, asks for the midrange pass on the
    /// first pyramid level: under glare, the mean thresholds can show a code beside the found ones by that one
    /// finder alone. Nothing left beside the code, or only grain, asks for nothing.
    @Test func aLoneFinderBesideACodeFoundAsksForTheMidrangePass() throws {
        var finder = BitMatrix(size: 7)
        for y in 0..<7 { for x in 0..<7 where max(abs(x - 3), abs(y - 3)) != 2 { finder[x, y] = true } }
        func session(finderModules: Double?) throws -> ReadSession {
            var scene = SyntheticScene(width: 400, height: 200)
            scene.place(try QRCode.encode("found").modules, center: Point(100, 100), moduleSize: 5)
            if let finderModules { scene.place(finder, center: Point(300, 100), moduleSize: finderModules) }
            var session = ReadSession(options: ReaderOptions(), deadline: nil)
            session.scan(plane(scene), scale: 1, inverted: false, binarizer: .block(.usual))
            #expect(session.results.map(\.text) == ["found"])
            return session
        }
        #expect(try session(finderModules: 6).loneFindersLeft)
        #expect(try !session(finderModules: nil).loneFindersLeft)
        #expect(try !session(finderModules: 3).loneFindersLeft)
    }

    /// `pixels` (`width` wide) with columns `0..<tiledWidth` tiled with finder-like squares of 1 px modules every
    /// 8 px, each stone holed: to the finder scan, thousands of finder patterns.
    private func tiledWithFinderLikeSquares(_ pixels: [UInt8], width: Int, tiledWidth: Int) -> [UInt8] {
        var pixels = pixels
        for y in 0..<(pixels.count / width) {
            for x in 0..<tiledWidth {
                let (u, v) = (x % 8, y % 8)
                guard u < 7 && v < 7 else { continue }
                let ring = min(u, v, 6 - u, 6 - v)
                pixels[y * width + x] = ring != 1 && !(u == 3 && v == 3) ? 0 : 255
            }
        }
        return pixels
    }

    /// A picture tiled with finder-like squares leaves hundreds of small patterns over: texture, which the
    /// enlarged read (``QRCodeReader/maximumEnlargedLeftovers``) is not for.
    @Test func aTilingOfFinderLikeSquaresLeavesTooManyPatternsToReadEnlarged() {
        let side = 400
        let pixels = tiledWithFinderLikeSquares([UInt8](repeating: 255, count: side * side), width: side, tiledWidth: side)
        var session = ReadSession(options: ReaderOptions(), deadline: nil)
        session.scan(LuminancePlane(width: side, height: side, pixels: pixels), scale: 1, inverted: false, binarizer: .block(.usual))
        #expect(session.results.isEmpty)
        #expect(session.mostFindersLeft(withModulesIn: 0..<QRCodeReader.enlargedModuleSize) > QRCodeReader.maximumEnlargedLeftovers)
    }

    /// A code beside a tiling of finder-like squares of smaller modules, whose triples as long as the code's
    /// own outnumber the sets a size class keeps (``FinderPatternGrouper/texturePatterns``), reads in one pass.
    @Test func aCodeBesideATilingOfFinderLikeSquaresReads() throws {
        var scene = SyntheticScene(width: 560, height: 300)
        scene.place(try QRCode.encode("beside texture").modules, center: Point(470, 150), moduleSize: 4, degrees: 10)
        let pixels = tiledWithFinderLikeSquares(scene.pixels, width: scene.width, tiledWidth: 360)
        var session = ReadSession(options: ReaderOptions(), deadline: nil)
        session.scan(LuminancePlane(width: scene.width, height: scene.height, pixels: pixels), scale: 1, inverted: false,
                     binarizer: .block(.usual))
        #expect(session.results.map(\.text) == ["beside texture"])
    }

    /// A light-on-dark code beside a dark-on-light one: the inverted picture is read beside codes found only
    /// with ``ReaderOptions/mixedPolarity``.
    @Test func mixedPolarityReadsALightOnDarkCodeBesideADarkOnLightOne() throws {
        let (plainText, invertedText) = ("dark on light", "light on dark")
        var scene = SyntheticScene(width: 400, height: 200)
        scene.place(try QRCode.encode(plainText).modules, center: Point(100, 100), moduleSize: 5)
        // Swapped colours: light modules, and a dark quiet zone on the light page.
        scene.place(try QRCode.encode(invertedText).modules, center: Point(300, 100), moduleSize: 5, degrees: 10, dark: 235, light: 20)
        #expect(read(scene).map(\.text) == [plainText])
        let both = read(scene, options: ReaderOptions(mixedPolarity: true))
        #expect(Set(both.map(\.text)) == [plainText, invertedText])
        #expect(both.first { $0.text == invertedText }?.inverted == true)
        #expect(both.first { $0.text == plainText }?.inverted == false)
    }

    /// The code printed larger of ``aCodePrintedLargerBesideAnotherOne``, alone and light on dark: only a level of
    /// the negative's pyramid shows its finders, as only a level of the picture's pyramid shows them dark on light.
    @Test func aLightOnDarkCloseUpReadsOnTheNegativesPyramid() throws {
        var scene = SyntheticScene(width: 800, height: 800)
        scene.place(try QRCode.encode("WECHAT wxp", options: .version(1)).modules, center: Point(400, 400), moduleSize: 24)
        scene.addInkTexture(amplitude: 80, seed: 3)
        scene.invert()
        for accuracy in ReaderOptions.Accuracy.allCases {
            let results = read(scene, options: ReaderOptions(accuracy: accuracy))
            #expect(results.map(\.text) == ["WECHAT wxp"], "\(accuracy)")
            #expect(results.first?.inverted == true)
        }
    }

    /// ``aCodePrintedLargerBesideAnotherOne`` light on dark: beside the code found in the negative at full scale,
    /// the negative's pyramid shows the larger one.
    @Test func aLightOnDarkCodePrintedLargerBesideAnotherOne() throws {
        var scene = SyntheticScene(width: 1000, height: 800)
        scene.place(try QRCode.encode("ALIPAY 2088", options: .version(1)).modules, center: Point(170, 400), moduleSize: 8)
        scene.place(try QRCode.encode("WECHAT wxp", options: .version(1)).modules, center: Point(640, 400), moduleSize: 24)
        scene.addInkTexture(amplitude: 80, seed: 3)
        scene.invert()
        let results = read(scene)
        #expect(Set(results.map(\.text)) == ["ALIPAY 2088", "WECHAT wxp"])
        #expect(results.allSatisfy { $0.inverted })
    }

    /// A small symbol, turned, at 2.1 px per module and blurred or at 1.5 px: the negative of a picture that reads
    /// dark on light reads light on dark. With nothing found, the negative gets the other local rule (midrange),
    /// and in a picture this small the global threshold, as the picture does; the build before read neither
    /// negative.
    @Test(arguments: [(2.1, 1), (1.5, 0)], [false, true])
    func aSmallTurnedSymbolReadsEitherWayRound(symbol: (moduleSize: Double, blurRadius: Int), lightOnDark: Bool) throws {
        let text = "http://example.com/midrange"
        var scene = SyntheticScene(width: 160, height: 160)
        scene.place(try QRCode.encode(text, options: .version(3)).modules, center: Point(80, 80), moduleSize: symbol.moduleSize,
                    degrees: 20)
        if symbol.blurRadius > 0 { scene.blur(radius: symbol.blurRadius) }
        if lightOnDark { scene.invert() }
        let results = read(scene)
        #expect(results.map(\.text) == [text])
        #expect(results.first?.inverted == lightOnDark)
        // Asked not to look for light-on-dark codes, the reader finds none.
        var plain = ReaderOptions()
        plain.tryInverted = false
        #expect(read(scene, options: plain).map(\.text) == (lightOnDark ? [] : [text]))
    }

    /// Random module errors up to what each level corrects: the codewords hit stay within capacity.
    @Test(arguments: ErrorCorrectionLevel.allCases)
    func moduleErrorsWithinCapacity(_ level: ErrorCorrectionLevel) throws {
        var random = SeededGenerator(seed: UInt64(level.rawValue + 100))
        let text = payload(60, seed: 5)
        let code = try QRCode.encode(text, options: EncodingOptions(errorCorrectionLevel: level, versions: 5...40))
        let layout = BlockLayout(version: code.version, level: level)
        let template = SymbolTemplate.of(code.version)
        // Corrupt whole codewords: in each block, as many as it can correct.
        var modules = code.modules
        for block in layout.blockIndices() {
            for codeword in block.shuffled(using: &random).prefix(layout.errorCorrectionCodewordsPerBlock / 2) {
                for bit in 0..<8 { modules.storage[Int(template.dataPositions[codeword * 8 + bit])] ^= 1 }
            }
        }
        var scene = SyntheticScene(width: 260, height: 260)
        scene.place(modules, center: Point(130, 130), moduleSize: 4, degrees: 3)
        let results = read(scene)
        #expect(results.map(\.text) == [text])
        #expect(results.first.map { $0.correctedCodewords > 0 } == true)
    }
}
