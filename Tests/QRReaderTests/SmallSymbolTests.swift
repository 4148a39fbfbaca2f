import Foundation
import QRCore
import QRTestSupport
import Testing
@testable import QRReader

/// A Micro QR or rMQR symbol from Fixtures/small-symbols.jsonl (made once by segno and rmqrcode, see
/// Scripts/make_small_symbol_fixture.py).
struct SmallSymbol: Decodable, CustomTestStringConvertible, Sendable {
    let symbology: String
    let version: String
    let text: String
    let rows: [String]

    var testDescription: String { "\(version) \(text)" }

    var modules: BitMatrix { BitMatrix(rows: rows.map { $0.map { $0 == "1" } }) }

    static let all: [SmallSymbol] = {
        guard let url = Bundle.module.url(forResource: "small-symbols", withExtension: "jsonl", subdirectory: "Fixtures"),
              let text = try? String(contentsOf: url, encoding: .utf8)
        else { return [] }
        return text.split(separator: "\n").compactMap { try? JSONDecoder().decode(SmallSymbol.self, from: Data($0.utf8)) }
    }()
}

@Suite("Micro QR and rMQR")
struct SmallSymbolTests {
    @Test func fixtureIsThere() { #expect(SmallSymbol.all.count == 13) }

    @Test(arguments: SmallSymbol.all)
    func readsRenderedSymbol(_ symbol: SmallSymbol) throws {
        let modules = symbol.modules
        let scale = 6.0
        let width = Double(modules.width) * scale + 60, height = Double(modules.height) * scale + 60
        var scene = SyntheticScene(width: Int(width), height: Int(height))
        scene.place(modules, corners: [Point(30, 30), Point(width - 30, 30), Point(width - 30, height - 30), Point(30, height - 30)],
                    quietZone: 2)
        let results = read(scene)
        #expect(results.map(\.text) == [symbol.text])
        #expect(results.first?.symbology.rawValue == symbol.symbology)
        #expect(results.first?.versionName == symbol.version)
    }

    /// The modules the reader checks before sampling a candidate are timing modules in symbols made by
    /// other encoders.
    @Test(arguments: SmallSymbol.all)
    func timingModulesMatchTheSymbol(_ symbol: SmallSymbol) throws {
        let modules = symbol.modules
        let expected: [(x: Int, y: Int, dark: Bool)]
        if symbol.symbology == Symbology.microQRCode.rawValue {
            expected = MicroQRLocator.timingModules(size: modules.width)
            #expect(expected.count == 2 * (modules.width - 8))
        } else {
            let version = try #require(RMQRVersion(height: modules.height, width: modules.width))
            expected = RMQRLocator.timingModules(version)
            #expect(expected.count >= modules.width / 2)
        }
        for module in expected {
            #expect((modules.storage[module.y * modules.width + module.x] != 0) == module.dark, "module \(module.x), \(module.y)")
        }
    }

    /// Seen at a steep angle (the far edge shortened by `tilt`), a Micro QR symbol's far modules lie well
    /// off both fits of its finder's square; its timing patterns say where. Every case failed without them.
    @Test(arguments: [("M3", 0.4, 0.0), ("M3", 0.4, 100.0), ("M4", 0.6, 15.0), ("M4", 0.6, 200.0)])
    func microQRSeenAtASteepAngle(_ version: String, _ tilt: Double, _ degrees: Double) throws {
        let symbol = try #require(SmallSymbol.all.first { $0.version == version })
        var scene = SyntheticScene(width: 240, height: 240)
        scene.place(symbol.modules, center: Point(120, 120), moduleSize: 8, degrees: degrees, tilt: tilt, quietZone: 2)
        #expect(read(scene).map(\.text) == [symbol.text])
    }

    @Test func microQRRotatedAndMirrored() throws {
        let symbol = try #require(SmallSymbol.all.first { $0.version == "M4" })
        var scene = SyntheticScene(width: 240, height: 240)
        scene.place(symbol.modules, center: Point(120, 120), moduleSize: 7, degrees: 130, quietZone: 2)
        #expect(read(scene).map(\.text) == [symbol.text])
        var mirrored = SyntheticScene(width: 240, height: 240)
        mirrored.place(symbol.modules.transposed(), center: Point(120, 120), moduleSize: 7, degrees: 20, quietZone: 2)
        let result = read(mirrored)
        #expect(result.map(\.text) == [symbol.text])
        #expect(result.first?.mirrored == true)
    }

    /// A Micro QR finder's square fitted with its inner corner pulled 0.7 of a module off (a data module
    /// blurred onto it): extrapolated from all four corners, the fit misses the timing modules in every
    /// orientation but in one that misreads the format as an 11-module symbol's; the affine fit through the
    /// three outer corners reads the symbol. Only that misreading came out before.
    @Test func microQRFinderSkewedAtItsInnerCorner() throws {
        let symbol = try #require(SmallSymbol.all.first { $0.version == "M4" })
        let (square, binary, luminance) = try skewedFinderScene(symbol)
        let candidate = try #require(MicroQRLocator.candidates(square: square, in: binary, luminance: luminance).first)
        #expect(candidate.format.version.size == symbol.modules.width)
        let texts = candidate.grids.compactMap {
            MicroQRDecoder.decode(ModuleSampler.sample($0, binary: binary), format: candidate.format)?.payload.text
        }
        #expect(texts.first == symbol.text)
    }

    /// The same for an rMQR symbol: no candidate came out before.
    @Test func rMQRFinderSkewedAtItsInnerCorner() throws {
        let symbol = try #require(SmallSymbol.all.first { $0.version == "R11x27" })
        let (square, binary, _) = try skewedFinderScene(symbol)
        let pattern = FinderPattern(center: Point(30 + 3.5 * 3, 30 + 3.5 * 3), moduleSize: 3)
        let candidate = try #require(RMQRLocator.candidates(pattern, square: square, in: binary).first)
        #expect(candidate.version.width == symbol.modules.width)
        let decoded = RMQRDecoder.decode(ModuleSampler.sample(candidate.grid, binary: binary), version: candidate.version,
                                         level: candidate.level)
        #expect(decoded?.payload.text == symbol.text)
    }

    /// `symbol` drawn upright at 3 px a module from (30, 30), and its finder's square as fitted with the
    /// corner facing the data pulled 0.7 of a module down.
    private func skewedFinderScene(_ symbol: SmallSymbol) throws -> (FinderCorners, BinaryImage, LuminancePlane) {
        let m = 3.0, width = Double(symbol.modules.width) * m, height = Double(symbol.modules.height) * m
        var scene = SyntheticScene(width: Int(width) + 60, height: Int(height) + 60)
        scene.place(symbol.modules, corners: [Point(30, 30), Point(30 + width, 30), Point(30 + width, 30 + height), Point(30, 30 + height)],
                    quietZone: 2)
        let luminance = plane(scene)
        let corners = [Point(30, 30), Point(30 + 7 * m, 30), Point(30 + 7 * m, 30 + 7.7 * m), Point(30, 30 + 7 * m)]
        // Ring edges along the middle of each side, as the square's fit finds them.
        var edges: [Point] = []
        for i in 0..<4 {
            let start = corners[i], along = corners[(i + 1) % 4] - corners[i]
            for t in stride(from: 0.3, through: 0.7, by: 0.1) { edges.append(start + along * t) }
        }
        let pattern = FinderPattern(center: Point(30 + 3.5 * m, 30 + 3.5 * m), moduleSize: m)
        let square = try #require(FinderCorners(edges: edges, pattern: pattern, u: Point(1, 0), v: Point(0, 1)))
        return (square, BlockBinarizer.binarize(luminance), luminance)
    }

    /// A long rMQR symbol turned far from upright: the homography of its finder's square alone, extrapolated
    /// to the far end, put the sub-pattern off the picture. Every case failed before the affine prediction.
    @Test(arguments: [("R13x77", 130.0), ("R9x99", 55.0), ("R17x139", 5.0)])
    func rMQRTurned(_ version: String, _ degrees: Double) throws {
        let symbol = try #require(SmallSymbol.all.first { $0.version == version })
        var scene = SyntheticScene(width: 600, height: 600)
        scene.place(symbol.modules, center: Point(300, 300), moduleSize: 4, degrees: degrees, quietZone: 2)
        #expect(read(scene).map(\.text) == [symbol.text])
    }

    /// An rMQR symbol seen at an angle along its length (its far end 0.8 of its near end's height): no affine
    /// fit follows it to the far end, nor the finder's fit with the pitch of its modules; its timing patterns,
    /// followed at their own pitch, do. Every case failed before.
    @Test(arguments: [("R7x43", 0.0), ("R13x77", 0.0), ("R9x99", 200.0)])
    func rMQRSeenAtAnAngleAlongItsLength(_ version: String, _ degrees: Double) throws {
        let symbol = try #require(SmallSymbol.all.first { $0.version == version })
        let length = Double(symbol.modules.width) * 4, near = Double(symbol.modules.height) * 5, far = near * 0.8
        let outline = [Point(-length / 2, -near / 2), Point(length / 2, -far / 2), Point(length / 2, far / 2), Point(-length / 2, near / 2)]
        let angle = degrees * .pi / 180
        let corners = outline.map { p in
            Point(350 + p.x * cos(angle) - p.y * sin(angle), 350 + p.x * sin(angle) + p.y * cos(angle))
        }
        var scene = SyntheticScene(width: 700, height: 700)
        scene.place(symbol.modules, corners: corners, quietZone: 2)
        #expect(read(scene).map(\.text) == [symbol.text])
    }

    /// A Micro QR or rMQR symbol of modules about 2 px, turned: its format and timing read around its finder
    /// but its modules do not, and no finder pattern is left over to ask for the picture enlarged; the
    /// square around the symbol is read enlarged. Every case failed before.
    @Test(arguments: [("M4", 160.0, 2.2, 1), ("R11x27", 74.0, 2.0, 1)])
    func smallModulesTurnedReadEnlarged(_ version: String, _ degrees: Double, _ moduleSize: Double, _ blur: Int) throws {
        let symbol = try #require(SmallSymbol.all.first { $0.version == version })
        var scene = SyntheticScene(width: 240, height: 240)
        scene.place(symbol.modules, center: Point(120, 120), moduleSize: moduleSize, degrees: degrees, quietZone: 2)
        if blur > 0 { scene.blur(radius: blur) }
        #expect(read(scene).map(\.text) == [symbol.text])
    }
}
