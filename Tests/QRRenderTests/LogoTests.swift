import Testing
import QRTestSupport
import QRCore
import QREncoder
import QRImage
import QRRender

/// Places random codewords in a symbol, inverts every module under the logo (the worst the logo can do)
/// and checks that every Reed–Solomon block still corrects.
private func survivesLogo(version: Version, level: ErrorCorrectionLevel, covered: ModuleRect, seed: UInt64) throws -> Bool {
    let layout = BlockLayout(version: version, level: level)
    var random = SeededGenerator(seed: seed)
    let data = (0..<layout.dataCodewords).map { _ in UInt8.random(in: 0...255, using: &random) }
    let codewords = layout.interleavedWithErrorCorrection(data)
    let template = SymbolTemplate.of(version)
    let size = version.size
    var damaged = codewords
    for (bit, position) in template.dataPositions.prefix(codewords.count * 8).enumerated() {
        let index = Int(position)
        if covered.contains(x: index % size, y: index / size) { damaged[bit / 8] ^= 0x80 >> UInt8(bit % 8) }
    }
    for indices in layout.blockIndices() {
        let original = indices.map { codewords[$0] }
        var block = indices.map { damaged[$0] }
        do {
            try ReedSolomonDecoder.correct(&block, errorCorrectionCount: layout.errorCorrectionCodewordsPerBlock)
        } catch {
            return false
        }
        if block != original { return false }
    }
    return true
}

@Suite("Logos")
struct LogoTests {
    @Test func placementIsCentredOnWholeModules() throws {
        let code = try makeCode(version: 5, level: .high)
        let placement = try LogoPlacement.validate(code: code, logo: try Logo(image: makeLogo(), areaShare: 0.12))
        // 37 × √0.12 = 12.8 modules, rounded down to the odd 11 so the box is exactly centred.
        #expect(placement.logoArea == ModuleRect(x: 13, y: 13, width: 11, height: 11))
        #expect(placement.coveredArea == ModuleRect(x: 12, y: 12, width: 13, height: 13))
        #expect(placement.correctableCodewordsPerBlock == 11)
        #expect(placement.allowedCodewordsPerBlock == 10)
        #expect(placement.damagedCodewordsPerBlock.count == 4)
        #expect(placement.damagedCodewordsPerBlock.allSatisfy { $0 <= 10 })

        let wide = try LogoPlacement.validate(code: code, logo: try Logo(image: makeLogo(width: 80, height: 40), areaShare: 0.1))
        #expect(wide.logoArea.width > wide.logoArea.height)
        #expect(wide.logoArea.x == (37 - wide.logoArea.width) / 2)
        #expect(throws: RenderError.self) { try Logo(image: makeLogo(), areaShare: 0) }
        #expect(throws: RenderError.self) { try Logo(image: makeLogo(), areaShare: 0.6) }
        #expect(throws: RenderError.self) { try Logo(image: makeLogo(), padding: -1) }
    }

    @Test(arguments: [(4, 0.12), (5, 0.12), (6, 0.12), (3, 0.08), (4, 0.08)])
    func acceptedLogosLeaveEveryBlockCorrectable(version number: Int, share: Double) throws {
        let version = try #require(Version(number))
        let code = try makeCode(version: number, level: .high)
        let placement = try LogoPlacement.validate(code: code, logo: try Logo(image: makeLogo(), areaShare: share))
        #expect(placement.damagedCodewords > 0)
        for seed in 1...5 {
            #expect(try survivesLogo(version: version, level: .high, covered: placement.coveredArea, seed: UInt64(seed)))
        }
    }

    @Test func twentyPercentIsTooMuchForVersionFiveAtLevelH() throws {
        // 20 % of the area is a 15 × 15 box (17 × 17 with its ring); partly covered codewords at its edges
        // bring the worst block to 12 lost codewords where level H restores 11.
        let code = try makeCode(version: 5, level: .high)
        #expect(throws: RenderError.logoTooLarge(coveredCodewords: 45, worstBlock: 12, correctable: 11, allowed: 10,
                                                 level: .high, largestFittingShare: 0.12)) {
            try LogoPlacement.validate(code: code, logo: try Logo(image: makeLogo()))
        }
    }

    @Test func fortyPercentAtLevelLIsRefusedWithAnExplanation() throws {
        let code = try makeCode(version: 5, level: .low)
        let logo = try Logo(image: makeLogo(), areaShare: 0.4)
        do throws(RenderError) {
            _ = try LogoPlacement.validate(code: code, logo: logo)
            Issue.record("a 40 % logo at level L was accepted")
        } catch {
            guard case let .logoTooLarge(covered, worst, correctable, allowed, level, share) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(level == .low && correctable == 13 && allowed == 12)
            #expect(worst > allowed && covered >= worst)
            #expect(share != nil)
            let message = error.description
            #expect(message.contains("The logo covers \(covered) codewords"))
            #expect(message.contains("level L can restore only 13 per block"))
            #expect(message.contains("smaller logo share"))
            #expect(message.contains("error-correction level H"))
        }
    }

    @Test func logosOverFunctionPatternsAreRefused() throws {
        // Version 7 has an alignment pattern at its very centre: readers locate the symbol without it.
        let code = try makeCode(version: 7, level: .high)
        #expect(throws: Never.self) {
            try LogoPlacement.validate(code: code, logo: try Logo(image: makeLogo(), areaShare: 0.03))
        }
        // On version 1 even a small logo reaches the timing patterns.
        let small = try makeCode(version: 1, level: .high)
        let padded = try Logo(image: makeLogo(), areaShare: 0.2, padding: 3)
        do throws(RenderError) {
            _ = try LogoPlacement.validate(code: small, logo: padded)
            Issue.record("accepted")
        } catch {
            #expect(error.description.contains("timing patterns") || error.description.contains("codewords"))
        }
    }

    @Test func defaultLogoTakesTheLargestShareTheLevelCanCarry() throws {
        let code = try makeCode(version: 5, level: .high)
        let (logo, placement) = try LogoPlacement.largestFitting(code: code, image: makeLogo())
        #expect(logo.areaShare == 0.12)
        #expect(placement.damagedCodewordsPerBlock.allSatisfy { $0 <= placement.allowedCodewordsPerBlock })
        // At level L on version 1 nothing fits: a clear error, not a code that does not scan.
        let tiny = try makeCode(version: 1, level: .low)
        #expect(throws: RenderError.self) { try LogoPlacement.largestFitting(code: tiny, image: makeLogo()) }
    }

    @Test func rasterLogoIsCrispAndCentred() throws {
        let code = try makeCode(version: 5, level: .high)
        let logo = try Logo(image: makeLogo(width: 40, height: 40), areaShare: 0.12)
        let style = RenderStyle(sizing: .moduleSize(4), quietZone: 4, logo: logo)
        let image = try RasterRenderer.image(for: code, style: style)
        let placement = try LogoPlacement.validate(code: code, logo: logo)
        // Outside the covered area the modules are drawn as usual.
        #expect(mismatches(image, code: code, quietZone: 4, moduleSize: 4, dark: .black, light: .white,
                           skipping: placement.coveredArea) == 0)
        // The padding ring is background; the logo (44 px box) fills the box exactly, transparent corner
        // showing the background.
        let ring = (x: (12 + 4) * 4, y: (12 + 4) * 4)
        for offset in 0..<4 { #expect(image[ring.x + offset, ring.y + 30] == .white) }
        let box = (x: (13 + 4) * 4, y: (13 + 4) * 4)
        #expect(image[box.x + 22, box.y + 22] == RGBAPixel(red: 200, green: 0, blue: 0))
        #expect(image[box.x + 43, box.y + 43] == RGBAPixel(red: 200, green: 0, blue: 0))
        #expect(image[box.x + 2, box.y + 2] == .white)
        // Few colours: the PNG is a palette image, and it decodes back to the same pixels.
        let png = try RasterRenderer.png(for: code, style: style)
        #expect(pngHeader(png).colorType == 3)
        #expect(try ImageDecoder().decodeRGBA(png).image == image)
    }

    @Test func photographicLogosFallBackToRGBA() throws {
        var photo = try RGBAImage(width: 30, height: 30)
        for y in 0..<30 {
            for x in 0..<30 { photo[x, y] = RGBAPixel(red: UInt8(x * 8), green: UInt8(y * 8), blue: UInt8((x * y) % 256)) }
        }
        let code = try makeCode(version: 6, level: .high)
        let style = RenderStyle(sizing: .moduleSize(6), logo: try Logo(image: photo, areaShare: 0.12))
        let png = try RasterRenderer.png(for: code, style: style)
        #expect(pngHeader(png) == (8, 6))
        #expect(try ImageDecoder().decodeRGBA(png).image == RasterRenderer.image(for: code, style: style))
    }
}
