import Foundation
import QRCore
import QREncoder
import QRTestSupport
import Testing
@testable import QRReader

/// Finder patterns that only read with allowances for damage, and the last pass that looks for them.
@Suite("Damaged finder patterns")
struct DamagedFinderTests {
    static let text = "damaged finder"

    /// A version 3 symbol at 8 pixels per module, rotated by `degrees` about the scene's centre, with
    /// `damage` applied to its modules first; and the centres of its finder patterns (top-left first).
    static func scene(degrees: Double, quietZone: Int = 4, damage: (inout BitMatrix) -> Void) throws
        -> (scene: SyntheticScene, finders: [Point])
    {
        var modules = try QRCode.encode(text, options: .version(3)).modules
        damage(&modules)
        var scene = SyntheticScene(width: 360, height: 360)
        scene.place(modules, center: Point(180, 180), moduleSize: 8, degrees: degrees, quietZone: quietZone)
        let angle = degrees * .pi / 180
        // Module (x, y) of the matrix, in pixels.
        func pixel(_ x: Double, _ y: Double) -> Point {
            let dx = (x - Double(modules.width) / 2) * 8, dy = (y - Double(modules.height) / 2) * 8
            return Point(180 + dx * cos(angle) - dy * sin(angle), 180 + dx * sin(angle) + dy * cos(angle))
        }
        return (scene, [pixel(3.5, 3.5), pixel(Double(modules.width) - 3.5, 3.5), pixel(3.5, Double(modules.height) - 3.5)])
    }

    /// The module left of the centre of the top-left finder's stone turned light.
    static func holeInTheStone(_ modules: inout BitMatrix) { modules[2, 3] = false }

    @Test(arguments: [0.0, 90, 180, 270, 33])
    func aHoleInTheCentreStoneReadsOnlyWithAllowances(degrees: Double) throws {
        let (scene, finders) = try Self.scene(degrees: degrees, damage: Self.holeInTheStone)
        let binary = BlockBinarizer.binarize(plane(scene))
        let whole = FinderPatternFinder.find(in: binary, rowStep: 1)
        #expect(!whole.contains { $0.center.distance(to: finders[0]) < 8 })
        let all = FinderPatternFinder.find(in: binary, rowStep: 1, allowingDamage: true)
        let holed = try #require(all.first { $0.center.distance(to: finders[0]) < 8 })
        #expect(holed.isDamaged && abs(holed.moduleSize - 8) < 2)
        // The whole patterns are found as before, and not as damaged ones.
        for finder in finders.dropFirst() {
            #expect(all.contains { !$0.isDamaged && $0.center.distance(to: finder) < 4 })
        }
        #expect(read(scene).map(\.text) == [Self.text])
    }

    /// The same symbol light on dark: the two whole finders the negative shows are completed with the damaged
    /// pattern there.
    @Test(arguments: [0.0, 33])
    func aLightOnDarkSymbolsHoledStoneReadsWithAllowances(degrees: Double) throws {
        var (scene, _) = try Self.scene(degrees: degrees, damage: Self.holeInTheStone)
        scene.invert()
        let results = read(scene)
        #expect(results.map(\.text) == [Self.text])
        #expect(results.first?.inverted == true)
    }

    /// The top-left finder's stone with its top third turned light, opening into the light ring above: a
    /// blot of white, or a punched hole. The pattern reads only with allowances, centred on its ring. The
    /// scan still needs a row that crosses the stone whole (turned by 90°, every row would cross the hole).
    @Test(arguments: [0.0, 180, 33, 213])
    func aStoneHalfEatenByALightBlotReadsOnlyWithAllowances(degrees: Double) throws {
        let (scene, finders) = try Self.scene(degrees: degrees) { modules in
            for x in 2...4 { modules[x, 2] = false }
        }
        let binary = BlockBinarizer.binarize(plane(scene))
        #expect(!FinderPatternFinder.find(in: binary, rowStep: 1).contains { $0.center.distance(to: finders[0]) < 8 })
        let all = FinderPatternFinder.find(in: binary, rowStep: 1, allowingDamage: true)
        let holed = try #require(all.first { $0.center.distance(to: finders[0]) < 8 })
        #expect(holed.isDamaged && abs(holed.moduleSize - 8) < 2)
        #expect(holed.center.distance(to: finders[0]) < 4)
        #expect(read(scene).map(\.text) == [Self.text])
    }

    /// A sheet of labels, the middle one's top-left finder holed: once its neighbours are found, its two
    /// other finders still call for the search that completes them with a damaged pattern.
    @Test func aLabelAmongFoundOnesIsCompletedWithItsDamagedFinder() throws {
        let (scene, texts) = try Self.sheetOfLabels { row, column, modules in
            if row == 1 && column == 1 { Self.holeInTheStone(&modules) }
        }
        #expect(Set(read(scene).map(\.text)) == Set(texts))
    }

    /// Nine version 3 labels of 6 px modules, three by three, each turned a little, `damage` applied to the
    /// modules of the label at each row and column; and their texts.
    static func sheetOfLabels(damage: (_ row: Int, _ column: Int, _ modules: inout BitMatrix) -> Void) throws
        -> (scene: SyntheticScene, texts: [String])
    {
        var scene = SyntheticScene(width: 620, height: 620)
        var texts: [String] = []
        for row in 0..<3 {
            for column in 0..<3 {
                let text = "label \(row) \(column)"
                var modules = try QRCode.encode(text, options: .version(3)).modules
                damage(row, column, &modules)
                scene.place(modules, center: Point(Double(110 + 200 * column), Double(110 + 200 * row)), moduleSize: 6,
                            degrees: Double(3 * (row + column) - 6), quietZone: 3)
                texts.append(text)
            }
        }
        return (scene, texts)
    }

    /// The top-left finder's stone blotted away, two thirds of it (its top row and left column left, which
    /// read as a smaller pattern off centre) or whole: no reading finds the pattern where the grid needs it,
    /// and a stand-in where the two whole finders place it completes the symbol.
    @Test(arguments: [(0.0, false), (20, false), (45, false), (135, false), (225, false), (90, true), (200, true), (315, true)])
    func aFinderWhoseStoneIsBlottedAwayIsStoodInFor(degrees: Double, whole: Bool) throws {
        let (scene, finders) = try Self.scene(degrees: degrees) { modules in
            for y in (whole ? 2 : 3)...4 { for x in (whole ? 2 : 3)...4 { modules[x, y] = false } }
        }
        let binary = BlockBinarizer.binarize(plane(scene))
        #expect(!FinderPatternFinder.find(in: binary, rowStep: 1).contains { $0.center.distance(to: finders[0]) < 8 })
        let read = read(scene)
        #expect(read.map(\.text) == [Self.text])
        let corner = try #require(read.first?.corners.corners.first)
        #expect(abs(corner.distance(to: finders[0]) - 3.5 * 8 * 2.0.squareRoot()) < 4)
    }

    /// A sheet of labels, three of them with a finder's stone blotted away: their six whole finders are all
    /// partners of one search, and each pair is completed with a stand-in.
    @Test func labelsWithBlottedStonesOnOneSheetAreEachStoodInFor() throws {
        let (scene, texts) = try Self.sheetOfLabels { row, column, modules in
            if row == column {
                for y in 2...4 { for x in 2...4 { modules[x, y] = false } }
            }
        }
        #expect(Set(read(scene).map(\.text)) == Set(texts))
    }

    /// Stand-ins stand where two patterns place a third, as opposite or neighbouring corners of a square,
    /// with the pair's module size; not where a partner stands, nor where the pattern would leave the image.
    @Test func standInsCompleteAPairAsASquaresCorners() {
        let p = FinderPattern(center: Point(100, 100), moduleSize: 4), q = FinderPattern(center: Point(200, 100), moduleSize: 6)
        let standIns = FinderPatternGrouper.standInThirdPatterns(completing: [p, q], width: 300, height: 300)
        let expected = [Point(150, 150), Point(150, 50), Point(100, 200), Point(200, 200)]
        #expect(standIns.count == expected.count)
        for centre in expected { #expect(standIns.contains { $0.center.distance(to: centre) < 1e-9 }) }
        #expect(standIns.allSatisfy { $0.isStandIn && $0.isDamaged && $0.moduleSize == 5 })
        // Beyond the image's edge (centres at y = 0) or too close to it, none stands.
        #expect(!standIns.contains { $0.center.y < 5 * 3.5 })
        // Patterns too close to be two finders of one symbol get none.
        let far = FinderPattern(center: Point(120, 100), moduleSize: 4)
        #expect(FinderPatternGrouper.standInThirdPatterns(completing: [p, far], width: 300, height: 300).isEmpty)
    }

    /// Runs read through such a hole: the hole's side, the module size, and the shift from what is left of
    /// the stone to the ring's middle; lines that are whole, or light on both sides, are not holed.
    @Test func runsThroughAHoledStone() throws {
        let holed = try #require(FinderPatternFinder.holedStone(RunLengths(8, 20, 12, 8, 8)))
        #expect(holed.side == -1 && holed.moduleSize == 8 && holed.centerShift == -6)
        let mirrored = try #require(FinderPatternFinder.holedStone(RunLengths(8, 8, 12, 20, 8)))
        #expect(mirrored.side == 1 && mirrored.centerShift == 6)
        // The blot eating into the ring on its side, not through it.
        #expect(FinderPatternFinder.holedStone(RunLengths(3, 25, 12, 8, 8)) != nil)
        #expect(FinderPatternFinder.holedStone(RunLengths(8, 8, 24, 8, 8)) == nil)
        #expect(FinderPatternFinder.holedStone(RunLengths(8, 16, 8, 16, 8)) == nil)
        #expect(FinderPatternFinder.holedStone(RunLengths(8, 28, 4, 8, 8)) == nil)
    }

    /// A symbol printed without its quiet zone against a dark edge: the top finders' rings merge with it.
    @Test(arguments: [0.0, 90, 180, 270])
    func ringsMergingWithADarkEdgeReadWithAllowances(degrees: Double) throws {
        let code = try QRCode.encode(Self.text, options: .version(3))
        // The symbol with 4 light modules on three sides and a dark band of 6 modules on the fourth.
        var framed = BitMatrix(width: code.size + 8, height: code.size + 10)
        for y in 0..<6 { for x in 0..<framed.width { framed[x, y] = true } }
        for y in 0..<code.size { for x in 0..<code.size { framed[x + 4, y + 6] = code.modules[x, y] } }
        var scene = SyntheticScene(width: 360, height: 360)
        scene.place(framed, center: Point(180, 180), moduleSize: 8, degrees: degrees, quietZone: 0)
        let binary = BlockBinarizer.binarize(plane(scene))
        #expect(FinderPatternFinder.find(in: binary, rowStep: 1).count < 3)
        let damaged = FinderPatternFinder.find(in: binary, rowStep: 1, allowingDamage: true).filter(\.isDamaged)
        #expect(damaged.count >= 2)
        #expect(read(scene).map(\.text) == [Self.text])
    }

    /// Glare over a finder pattern's ring, all round or on one side with the modules beside its corners:
    /// no ratio test reads the pattern, but its core (the stone, with light all round) shows, and the two
    /// finders that read place it.
    @Test(arguments: [(0.0, true), (90, true), (180, true), (270, true), (20, true), (0, false), (90, false), (200, false)])
    func aFinderWhoseRingIsWashedOutReadsFromItsCore(degrees: Double, allRound: Bool) throws {
        let (scene, finders) = try Self.scene(degrees: degrees) { modules in
            for y in 0..<7 {
                for x in 0..<7 where x == 0 || (allRound && (y == 0 || x == 6 || y == 6)) { modules[x, y] = false }
            }
            modules[1, 0] = false
            modules[1, 6] = false
        }
        let binary = BlockBinarizer.binarize(plane(scene))
        #expect(!FinderPatternFinder.find(in: binary, rowStep: 1, allowingDamage: true).contains { $0.center.distance(to: finders[0]) < 8 })
        let everywhere = [Rect(x: 0, y: 0, width: 360, height: 360)]
        let core = try #require(FinderCoreFinder.find(in: binary, regions: everywhere, moduleSizes: 6...10)
            .first { $0.center.distance(to: finders[0]) < 3 })
        #expect(core.isDamaged && abs(core.moduleSize - 8) < 1.5)
        #expect(read(scene).map(\.text) == [Self.text])
    }

    /// A core is a dark square of three modules with light all round, of a module size asked for, in the
    /// regions asked for: bars, blocks of other sizes, a stone that touches something dark, and stones
    /// outside the regions are not cores.
    @Test func coresAreSquareStonesWithLightAllRound() {
        let width = 200, height = 100
        var bits = [UInt8](repeating: 0, count: width * height)
        func fill(_ x: Int, _ y: Int, _ w: Int, _ h: Int) {
            for row in y..<(y + h) { for column in x..<(x + w) { bits[row * width + column] = 1 } }
        }
        fill(10, 10, 12, 12)   // a stone of 4-px modules, centred at (16, 16)
        fill(40, 10, 12, 36)   // a bar
        fill(70, 10, 30, 30)   // a block of 10-px modules
        fill(110, 10, 12, 12)  // a stone touching a dark run on its right
        fill(122, 14, 20, 4)
        fill(160, 60, 12, 12)  // a stone outside the region
        let image = BinaryImage(width: width, height: height, pixels: bits)
        let cores = FinderCoreFinder.find(in: image, regions: [Rect(x: 0, y: 0, width: 150, height: 100)], moduleSizes: 3...5)
        #expect(cores.count == 1)
        #expect(cores.first.map { $0.center.distance(to: Point(16, 16)) < 1 && abs($0.moduleSize - 4) < 0.5 && $0.isDamaged } == true)
        #expect(FinderCoreFinder.find(in: image, regions: [Rect(x: 150, y: 50, width: 50, height: 50)], moduleSizes: 3...5).count == 1)
    }

    /// Patterns that read whole are found the same with or without allowances, first and not as damaged
    /// ones; what the allowances add (data mimics damaged patterns now and then) is marked damaged.
    @Test(arguments: [0.0, 45])
    func wholePatternsAreUnchangedByAllowances(degrees: Double) throws {
        let (scene, finders) = try Self.scene(degrees: degrees) { _ in }
        let binary = BlockBinarizer.binarize(plane(scene))
        let whole = FinderPatternFinder.find(in: binary, rowStep: 1)
        #expect(whole.count == 3 && finders.allSatisfy { finder in whole.contains { $0.center.distance(to: finder) < 4 } })
        let all = FinderPatternFinder.find(in: binary, rowStep: 1, allowingDamage: true)
        #expect(Array(all.prefix(3)) == whole)
        #expect(all.dropFirst(3).allSatisfy { $0.isDamaged })
    }

    /// A speck in the centre stone on the row through the pattern's centre: without allowances the rows
    /// a third of a module above and below read it whole, so with allowances it is whole too, at the same
    /// place, rather than damaged through rows a module away.
    @Test func aSpeckOnTheCentreRowLeavesThePatternWhole() throws {
        let module = 9, origin = 20, size = 7 * 9 + 40
        var bits = [UInt8](repeating: 0, count: size * size)
        for y in 0..<(7 * module) {
            for x in 0..<(7 * module) {
                let (mx, my) = (x / module, y / module)
                let ring = mx == 0 || mx == 6 || my == 0 || my == 6
                let stone = (2...4).contains(mx) && (2...4).contains(my)
                if ring || stone { bits[(origin + y) * size + origin + x] = 1 }
            }
        }
        // Rows 31 and 32 of the pattern, where its centre row falls; column 27, off the vertical and diagonal
        // lines through the centre.
        for y in 31...32 { bits[(origin + y) * size + origin + 27] = 0 }
        let binary = BinaryImage(width: size, height: size, pixels: bits)
        // One scan row crosses the stone (row 40 of the pattern): no second row hit can set things right.
        let whole = try #require(FinderPatternFinder.find(in: binary, rowStep: 40).first)
        let all = FinderPatternFinder.find(in: binary, rowStep: 40, allowingDamage: true)
        #expect(all == [whole])
        #expect(!whole.isDamaged && whole.center.distance(to: Point(Double(origin) + 31.5, Double(origin) + 31.5)) < 1.5)
    }

    /// Of more than four patterns left unaccounted for, only those whose ring fits a square cleanly are taken
    /// for a missed symbol's finders (partners for a search for damaged patterns): sensor noise and texture
    /// leave many, whose third patterns' places would cover the picture. Up to four are all taken: small
    /// blurred finders often fit no clean square. Specks of grain do not count against the four.
    @Test func manyLeftoverPatternsAreScreenedForCleanRings() throws {
        let (scene, finders) = try Self.scene(degrees: 30) { _ in }
        let binary = BlockBinarizer.binarize(plane(scene))
        let real = finders.map { FinderPattern(center: $0, moduleSize: 8) }
        // Patterns taken in the symbol's data, whose "rings" are data modules.
        let texture = [Point(180, 180), Point(200, 150)].map { FinderPattern(center: $0, moduleSize: 8) }
        #expect(ReadSession.likelyFinders(real + texture, in: binary) == real)
        let few = Array(real.prefix(2)) + texture
        #expect(ReadSession.likelyFinders(few, in: binary) == few)
        // Beside three specks of grain (1.5 px modules, on the blank margin), the two are still taken whole
        // and the specks screened.
        let specks = (0..<3).map { FinderPattern(center: Point(Double(10 + 20 * $0), 10), moduleSize: 1.5) }
        #expect(ReadSession.likelyFinders(texture + specks, in: binary) == texture)
    }

    /// The full-scale pass over a symbol whose bottom-left finder is wiped out, which reads nothing and leaves its two
    /// other finders (8 px modules) over.
    private static func passOverSymbolWithoutBottomLeftFinder() throws -> ReadSession {
        let (scene, _) = try scene(degrees: 0) { modules in
            for y in (modules.height - 7)..<modules.height { for x in 0..<7 { modules[x, y] = false } }
        }
        var session = ReadSession(options: ReaderOptions(), deadline: nil)
        session.scan(plane(scene), scale: 1, inverted: false, binarizer: .block(.usual))
        #expect(session.results.isEmpty)
        return session
    }

    /// Finder patterns a pass left over are hidden from a pyramid level where their modules are under 2 px:
    /// a read there that leaves nothing over does not account for them.
    @Test func leftoverPatternsAreHiddenFromLevelsTooCoarseToShowThem() throws {
        let session = try Self.passOverSymbolWithoutBottomLeftFinder()
        #expect(session.unexplainedPasses.first?.patterns.count == 2)
        #expect(!session.leftFindersHidden(atScale: 1, inverted: false))
        #expect(!session.leftFindersHidden(atScale: 3, inverted: false))  // 2.7 px there
        #expect(session.leftFindersHidden(atScale: 5, inverted: false))   // 1.6 px there
        // Patterns the picture's passes left say nothing of the negative's.
        #expect(!session.leftFindersHidden(atScale: 5, inverted: true))
    }

    /// Small finder patterns left over with nothing found ask for the midrange look at full scale when they may be
    /// a missed symbol's finders (two, here), not when they are texture: a tiling of finder-like squares leaves
    /// hundreds.
    @Test func onlyLikelyFindersLeftOverAskForTheFullScaleMidrangeLook() throws {
        let symbol = try Self.passOverSymbolWithoutBottomLeftFinder()
        #expect(symbol.leftFinders(withModulesIn: 2..<10, inverted: false))
        #expect(!symbol.leftFinders(withModulesIn: 2..<10, inverted: true))

        // Squares of 2 px modules every 16 px, dark on light.
        let side = 320
        let tiling = (0..<(side * side)).map { index -> UInt8 in
            let (u, v) = (index % side % 16, index / side % 16)
            let ring = min(u, v, 13 - u, 13 - v) / 2
            return u < 14 && v < 14 && ring != 1 ? 20 : 235
        }
        var texture = ReadSession(options: ReaderOptions(), deadline: nil)
        texture.scan(LuminancePlane(width: side, height: side, pixels: tiling), scale: 1, inverted: false, binarizer: .block(.usual))
        #expect(texture.results.isEmpty)
        #expect(texture.mostFindersLeft(withModulesIn: 1..<5) > ReadSession.maximumPartners)
        #expect(!texture.leftFinders(withModulesIn: 1..<5, inverted: false))
    }

    /// Dozens of patterns left over are taken for texture, not a missed symbol's finders; when the
    /// pyramid's hiding is asked about, those of under 2 px modules in the pass's plane (sensor grain) are
    /// set aside first, so a code's finders beside them still count.
    @Test func grainIsSetAsideWhenLeftoversAreAskedToBeHidden() throws {
        let (scene, finders) = try Self.scene(degrees: 0) { _ in }
        let image = plane(scene)
        let binary = BlockBinarizer.binarize(image)
        let real = finders.prefix(2).map { FinderPattern(center: $0, moduleSize: 8) }
        let grain = (0..<ReadSession.maximumPartners).map { FinderPattern(center: Point(Double(10 + 20 * $0), 10), moduleSize: 1.5) }
        let session = ReadSession(options: ReaderOptions(), deadline: nil)
        let pass: ReadSession.UnexplainedPass = (image, binary, 1, real + grain, true, false)
        #expect(session.missedFinders(of: pass).isEmpty)
        #expect(session.missedFinders(of: pass, settingAsideGrain: true) == real)
        // The same patterns at a pyramid level of factor 2: the grain is 3 px at full scale, 1.5 px there.
        let coarse: ReadSession.UnexplainedPass = (image, binary, 2, real + grain, false, false)
        #expect(session.missedFinders(of: coarse, settingAsideGrain: true) == real)
    }

    @Test(arguments: [0.0, 30, 90, 200])
    func thirdPatternRegionsHoldTheMissingCorner(degrees: Double) throws {
        let (_, finders) = try Self.scene(degrees: degrees) { _ in }
        func pattern(_ centre: Point) -> FinderPattern { FinderPattern(center: centre, moduleSize: 8) }
        // Any two of the three finders place the third inside one of the regions.
        for missing in 0..<3 {
            let partners = finders.indices.filter { $0 != missing }.map { pattern(finders[$0]) }
            let regions = try #require(FinderPatternGrouper.thirdPatternRegions(completing: partners, width: 1000, height: 1000))
            #expect(regions.contains { $0.contains(finders[missing]) })
        }
        // Patterns too close together for one symbol's finders leave nothing to search.
        let close = [pattern(Point(100, 100)), pattern(Point(150, 100))]
        #expect(FinderPatternGrouper.thirdPatternRegions(completing: close, width: 1000, height: 1000)?.isEmpty == true)
    }

    @Test func completingSetsPairTwoPartnersWithADamagedPattern() throws {
        let (_, finders) = try Self.scene(degrees: 20) { _ in }
        var holed = FinderPattern(center: finders[0], moduleSize: 8)
        holed.isDamaged = true
        // Partners first, then the damaged top-left and a damaged pattern far from any symbol corner.
        var stray = FinderPattern(center: Point(900, 40), moduleSize: 8)
        stray.isDamaged = true
        let patterns = [FinderPattern(center: finders[1], moduleSize: 8), FinderPattern(center: finders[2], moduleSize: 8), holed, stray]
        let sets = FinderPatternGrouper.completingSets(from: patterns, partners: [0, 1])
        let first = try #require(sets.first)
        #expect(first.indices == [2, 0, 1])
        #expect(!sets.contains { $0.indices.contains(3) })
        // Sets of whole patterns never include damaged ones, and damaged sets always do.
        #expect(FinderPatternGrouper.sets(from: patterns).isEmpty)
        #expect(FinderPatternGrouper.damagedSets(from: patterns).allSatisfy { $0.indices.contains(where: { patterns[$0].isDamaged }) })
    }

    /// A damaged top-right pattern whose runs do not read towards the top-left one (its ring's left column
    /// washed out) measures the top side with the module size it was found with. Found with modules a third
    /// too small, it measures the version 3 symbol as 33 modules across, and the grid of that size times as
    /// noise: the first look times the neighbouring sizes too, and passes the set on to its grids.
    @Test(arguments: [0.0, 90])
    func aDamagedPatternMeasuringTheSymbolAVersionOffPassesTheFirstLook(degrees: Double) throws {
        let (scene, finders) = try Self.scene(degrees: degrees) { modules in
            for y in 0...6 { modules[modules.width - 7, y] = false }
        }
        let binary = BlockBinarizer.binarize(plane(scene))
        var topRight = FinderPattern(center: finders[1], moduleSize: 5.5)
        topRight.isDamaged = true
        let set = FinderPatternSet(topLeft: FinderPattern(center: finders[0], moduleSize: 8), topRight: topRight,
                                   bottomLeft: FinderPattern(center: finders[2], moduleSize: 8), indices: [0, 1, 2])
        let look = SymbolLocator.firstLook(at: set, in: binary, cache: FinderCorners.Cache())
        #expect(look.estimate?.dimension == 33)
        #expect(look.score >= GridCheck.samplingScore)
        let found = read(scene)
        #expect(found.map(\.text) == [Self.text])
    }

    /// Damaged patterns in a symbol's data can complete two of its finders as smaller triples, the pair as
    /// their hypotenuse, that the usual score ranks before the symbol's own set: the most square-like set
    /// still comes among the first two.
    @Test func completingSetsTakeTheSquareSetAmongSmallerDecoys() throws {
        func damaged(_ centre: Point) -> FinderPattern {
            var pattern = FinderPattern(center: centre, moduleSize: 8)
            pattern.isDamaged = true
            return pattern
        }
        let topLeft = Point(100, 100), topRight = Point(330, 100), bottomLeft = Point(100, 330)
        // Nearly right angles on the circle through the two partners, inside the symbol.
        let decoys = stride(from: 81.0, through: 97, by: 2).map { degrees in
            let angle = degrees * .pi / 180
            return damaged(Point(215 + 115 * cos(angle), 100 + 115 * sin(angle)))
        }
        let patterns = [FinderPattern(center: topLeft, moduleSize: 8), FinderPattern(center: topRight, moduleSize: 8), damaged(bottomLeft)]
            + decoys
        let sets = FinderPatternGrouper.completingSets(from: patterns, partners: [0, 1])
        #expect(sets.count == 1 + decoys.count)
        let real = try #require(sets.firstIndex { Set($0.indices) == [0, 1, 2] })
        #expect(real <= 1)
    }

    /// Dense data without a symbol (random modules) shows patterns that pass the looser checks, but no
    /// set of them decodes: nothing is reported.
    @Test(arguments: [UInt64(1), 2, 3])
    func moduleNoiseGivesNoResult(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var modules = BitMatrix(size: 60)
        for y in 0..<60 { for x in 0..<60 { modules[x, y] = Bool.random(using: &random) } }
        var scene = SyntheticScene(width: 400, height: 400)
        scene.place(modules, center: Point(200, 200), moduleSize: 6, degrees: 12)
        let binary = BlockBinarizer.binarize(plane(scene))
        #expect(FinderPatternFinder.find(in: binary, allowingDamage: true).contains { $0.isDamaged })
        #expect(read(scene).isEmpty)
    }

    /// The seed apps' case: two codes side by side. The damaged one's whole finder patterns are left
    /// unaccounted for once the clean one decodes, and its damaged pattern completes them.
    @Test func aDamagedSymbolBesideACleanOneReadsToo() throws {
        let clean = try QRCode.encode("clean", options: .version(3)).modules
        var holed = try QRCode.encode(Self.text, options: .version(3)).modules
        Self.holeInTheStone(&holed)
        var both = SyntheticScene(width: 640, height: 360)
        both.place(clean, center: Point(160, 180), moduleSize: 8)
        both.place(holed, center: Point(480, 180), moduleSize: 8, degrees: 10)
        #expect(Set(read(both).map(\.text)) == ["clean", Self.text])
    }

    /// A symbol all three of whose finders are holed, beside a code found: it leaves no pair of whole
    /// patterns to search near. Here three finder-shaped marks around blank paper (a frame printed like a
    /// symbol, which decodes nothing) are searched near, and the search passes by the holed symbol at the
    /// frame's open corner: the last search, anywhere, groups the damaged patterns it saw.
    @Test func aSymbolWithEveryFinderHoledBesideAFoundCodeReads() throws {
        let clean = try QRCode.encode("clean", options: .version(3)).modules
        var holed = try QRCode.encode(Self.text, options: .version(1)).modules
        let last = holed.width - 1
        for (x, y) in [(2, 3), (last - 2, 3), (2, last - 3)] { holed[x, y] = false }
        var frame = BitMatrix(size: 33)
        for (left, top) in [(0, 0), (26, 0), (0, 26)] {
            for y in 0..<7 {
                for x in 0..<7 {
                    let ring = max(abs(x - 3), abs(y - 3))
                    frame[left + x, top + y] = ring != 2
                }
            }
        }
        var scene = SyntheticScene(width: 860, height: 560)
        scene.place(clean, center: Point(150, 280), moduleSize: 8)
        scene.place(frame, center: Point(500, 220), moduleSize: 8)
        scene.place(holed, center: Point(604, 324), moduleSize: 8, degrees: 8)
        #expect(Set(read(scene).map(\.text)) == ["clean", Self.text])
    }
}
