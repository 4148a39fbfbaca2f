import QRCore
import QRImage

/// Finds and decodes every QR code in an image.
///
/// ```swift
/// let reader = QRCodeReader()
/// for code in reader.read(grayImage) { print(code.text, code.corners) }
/// ```
public struct QRCodeReader: Sendable {
    public var options: ReaderOptions

    public init(options: ReaderOptions = ReaderOptions()) {
        self.options = options
    }

    /// Every code in `image`, in the order found, without duplicates.
    public func read(_ image: GrayImage) -> [ReadResult] {
        read(LuminancePlane(image))
    }

    /// Every code in a colour image. It is read from its luminance; if nothing is found there (with
    /// `.thorough` accuracy), also from its darkest channel, where light-coloured codes (yellow or cyan on
    /// white) keep their contrast and some glare is weaker. A time budget covers both.
    public func read(_ image: RGBAImage) -> [ReadResult] {
        read(GrayImage(image)) { GrayImage(image, conversion: .darkestChannel) }
    }

    /// Every code in `luminance`, or, if none is found there and accuracy is `.thorough`, in the
    /// darkest-channel version of the same picture that `darkestChannel` makes on demand (for example by
    /// decoding the file again with ``GrayConversion/darkestChannel``), unless the two differ too little to
    /// read differently. The darkest channel gets one pass, with the global threshold (the pass where a
    /// conversion with other contrasts most often differs), before the costliest of the luminance passes:
    /// the search for damaged finder patterns anywhere in the picture, left out if it finds a code.
    public func read(_ luminance: GrayImage, darkestChannel: () -> GrayImage?) -> [ReadResult] {
        read(LuminancePlane(luminance)) {
            guard let darkest = darkestChannel(), darkest.width == luminance.width, darkest.height == luminance.height,
                  Self.differsEnough(darkest, from: luminance)
            else { return nil }
            return LuminancePlane(darkest)
        }
    }

    /// Whether the darkest-channel picture could read differently from the luminance one: enough pixels
    /// (as many as the smallest symbol covers, an 11-module Micro QR at 3 px per module) differ by more
    /// than the contrast a block needs to be thresholded at all. A grey picture stored in colour differs
    /// by a few levels at most, and reading it again costs as much as the first read. Every fourth row is
    /// enough to tell (a quarter as many pixels): the smallest symbol spans eight of them.
    private static func differsEnough(_ darkest: GrayImage, from luminance: GrayImage) -> Bool {
        let rowStep = luminance.height >= 64 ? 4 : 1
        let minimumPixels = 11 * 11 * 9 / rowStep
        let contrast = UInt8(BlockBinarizer.minimumDynamicRange)
        let width = luminance.width
        return darkest.pixels.withUnsafeBytes { dark in
            luminance.pixels.withUnsafeBytes { luma in
                let threshold = SIMD16<UInt8>(repeating: contrast)
                var count = 0
                for y in stride(from: 0, to: luminance.height, by: rowStep) where count < minimumPixels {
                    var start = y * width
                    let rowEnd = start + width
                    // Sixteen pixels at a time, in chunks of 255 vectors (each lane counts at most 255).
                    while start + 16 <= rowEnd {
                        let end = min(rowEnd - (rowEnd - start) % 16, start + 255 * 16)
                        var lanes = SIMD16<UInt8>(repeating: 0)
                        var offset = start
                        while offset < end {
                            let a = luma.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self)
                            let b = dark.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self)
                            let difference = pointwiseMax(a, b) &- pointwiseMin(a, b)
                            lanes &+= SIMD16<UInt8>(repeating: 0).replacing(with: 1, where: difference .> threshold)
                            offset += 16
                        }
                        count += Int(SIMD16<UInt16>(truncatingIfNeeded: lanes).wrappedSum())
                        start = end
                    }
                    for i in start..<rowEnd {
                        let a = luma[i], b = dark[i]
                        count += (a > b ? a &- b : b &- a) > contrast ? 1 : 0
                    }
                }
                return count >= minimumPixels
            }
        }
    }

    /// Every code in 8-bit luminance pixels (row-major, `width` × `height`).
    public func read(luminance pixels: [UInt8], width: Int, height: Int) -> [ReadResult] {
        guard width > 0, height > 0, pixels.count == width * height else { return [] }
        return read(LuminancePlane(width: width, height: height, pixels: pixels))
    }

    /// Every code in `full`; `darkestChannel`, if it gives one, is the same picture in another grey
    /// conversion, for one more pass when the others find nothing (see ``read(_:darkestChannel:)``).
    func read(_ full: LuminancePlane, darkestChannel: () -> LuminancePlane? = { nil }) -> [ReadResult] {
        let clock = ContinuousClock()
        let start = clock.now
        let (plane, origin) = crop(full)
        guard plane.width >= 11, plane.height >= 11 else { return [] }
        var session = Session(options: options, deadline: options.timeBudget.map { start + $0 })

        // Later passes only run while something may be missing: nothing found yet, or finder patterns
        // that formed plausible symbols without decoding.
        session.scan(plane, scale: 1, inverted: false, binarizer: .block(.usual))
        var invertedTried = false
        if options.accuracy == .thorough {
            // The pyramid's first level and its factor, kept for the low-contrast pass.
            var firstLevel: (plane: LuminancePlane, factor: Int)?
            if options.tryDownscale && min(plane.width, plane.height) >= 400 {
                // A small pyramid: averaging also washes out screen moiré and print texture finer than the
                // modules, and lets the local threshold see very large modules whole.
                let first = min(plane.width, plane.height) >= 1600 ? 3 : 2
                let depth = min(plane.width, plane.height) / (2 * first) >= 200 ? 2 : 1
                var level = plane
                for levelNumber in 1...depth {
                    let factor = levelNumber == 1 ? first : 2 * first
                    // A level is read while something may be missing. The second, where there is one, is read
                    // even when nothing seems to be: a code whose modules are so large that its finders' centre
                    // stones are wider than the local thresholds' window (five blocks) can show no finder
                    // pattern at full scale or at the first level, and so leave no sign of itself (two codes
                    // side by side, one printed larger). zxing-cpp reads its whole pyramid always. What such a
                    // speculative read leaves over asks for no further passes. (The first level is then made,
                    // as the second's source, but not read.)
                    let missing = session.mayBeMissingCodes
                    guard !session.isDone, missing || depth == 2 else { break }
                    // The second level averages the first level again: the same boxes, read from a plane 4–9 times smaller.
                    level = levelNumber == 1 ? plane.downscaled(by: first) : level.downscaled(by: 2)
                    if levelNumber == 1 { firstLevel = (level, factor) }
                    // Damaged finder patterns are looked for near the first level's leftovers, not the second's: in
                    // the corpus no search there read a code in any orientation, and one cost up to 0.6 ms.
                    if missing || levelNumber == 2 {
                        session.scan(level, scale: Double(factor), inverted: false, binarizer: .block(.usual), speculative: !missing,
                                     searchedForDamage: levelNumber == 1)
                    }
                }
            }
            // Light-on-dark codes show no finder patterns to the normal scans, or a stray few in their data
            // that form no symbol: when the local thresholds grouped no three patterns into a set, the inverted
            // picture is likelier to hold a code than the other thresholds.
            if options.tryInverted && session.results.isEmpty && !session.formedSets {
                invertedTried = true
                session.scan(plane.inverted(), scale: 1, inverted: true, binarizer: .block(.usual))
            }
            // The other local rule, thresholding at the middle of each block's contrast, reads some pictures the
            // first cannot (light-grey or thin-ringed finders beside flat areas) and fails on others. It gets
            // one pass, on the pyramid's first level where there is one. At full scale it read 28 more codes in
            // four turns of the corpus rather than 10, but made the whole corpus 40 % slower: it costs as much
            // as the first pass, and twice that in textured photos, whose grain it thresholds too. It is a second
            // opinion on what the earlier passes left over, often on a coarser plane where those patterns do not
            // show: what it leaves over adds to theirs.
            if session.mayBeMissingCodes {
                let (level, factor) = firstLevel ?? (plane, 1)
                session.scan(level, scale: Double(factor), inverted: false, binarizer: .midrange, addingToLeftovers: true)
            }
            if session.mayBeMissingCodes {
                // A clean, evenly lit picture can threshold globally exactly as it did locally: the same binary
                // image shows the same patterns and grids again.
                session.scan(plane, scale: 1, inverted: false, binarizer: .global, unlessIdenticalTo: session.localThresholds)
            }
            // A code under glare or haze can have less contrast than the local thresholds take for a flat
            // block, and no single threshold fits the light across it: with nothing found, the pyramid's
            // first level (where averaging has quieted noise) is thresholded again with only blocks
            // flat to within noise set aside.
            if let firstLevel, session.results.isEmpty {
                session.scan(firstLevel.plane, scale: Double(firstLevel.factor), inverted: false, binarizer: .block(.lowContrast))
            }
        }
        // Light-on-dark codes: the local threshold handles them (a global one found none in the corpus).
        if !invertedTried && session.results.isEmpty && options.tryInverted {
            session.scan(plane.inverted(), scale: 1, inverted: true, binarizer: .block(.usual))
        }
        // Last, finder patterns that only read with allowances for damage (a module missing, a ring merging
        // with a dark surround). Texture and dense data show many such patterns, so they are looked for only
        // where a symbol seems missing: first near pairs of patterns that a pass left unaccounted for and no
        // code found since explains, where a third pattern would complete them; then, if nothing has been
        // found at all, anywhere in the picture. That costlier search comes after the one pass the picture
        // gets in another grey conversion, if one is given.
        guard options.accuracy == .thorough else { return placed(session.results, by: origin) }
        for pass in session.unexplainedPasses where !session.isDone {
            let left = pass.patterns.filter { pattern in !session.results.contains { $0.corners.contains(pattern.center * pass.scale) } }
            // Dozens left over are texture or screen moiré, not the finders of a missed symbol.
            guard !left.isEmpty, left.count <= Session.maximumPartners else { continue }
            let regions = FinderPatternGrouper.thirdPatternRegions(completing: left, width: pass.binary.width, height: pass.binary.height)
            if regions?.isEmpty == true { continue }
            session.search(Session.DamagedSearch(partners: left, regions: regions, anywhere: false, inLocalThresholds: pass.isLocalThresholds),
                           plane: pass.plane, binary: pass.binary, scale: pass.scale)
        }
        if session.results.isEmpty && !session.isDone, let darkest = darkestChannel() {
            session.scan(crop(darkest).plane, scale: 1, inverted: false, binarizer: .global)
        }
        if session.results.isEmpty, let binary = session.localThresholds {
            session.search(Session.DamagedSearch(partners: [], regions: nil, anywhere: true, inLocalThresholds: true),
                           plane: plane, binary: binary, scale: 1)
        }
        return placed(session.results, by: origin)
    }

    /// Structured Append parts merged, and every position moved from the region of interest to the image.
    private func placed(_ found: [ReadResult], by origin: Point) -> [ReadResult] {
        StructuredAppendMerger.merge(found).map { result in
            var moved = result
            moved.corners = result.corners.map { $0 + origin }
            moved.parts = result.parts.map { part in
                var p = part
                p.corners = part.corners.map { $0 + origin }
                return p
            }
            return moved
        }
    }

    /// The region of interest cut out, and its offset in the full image.
    private func crop(_ plane: LuminancePlane) -> (plane: LuminancePlane, origin: Point) {
        guard let region = options.regionOfInterest else { return (plane, .zero) }
        let rect: Rect
        switch region {
        case let .normalized(r):
            rect = Rect(x: r.minX * Double(plane.width), y: r.minY * Double(plane.height),
                        width: r.width * Double(plane.width), height: r.height * Double(plane.height))
        case let .pixels(r):
            rect = r
        }
        let x0 = rect.minX.pixelIndex(clampedTo: 0...plane.width) ?? 0
        let y0 = rect.minY.pixelIndex(clampedTo: 0...plane.height) ?? 0
        let x1 = max(x0, rect.maxX.rounded(.up).pixelIndex(clampedTo: 0...plane.width) ?? plane.width)
        let y1 = max(y0, rect.maxY.rounded(.up).pixelIndex(clampedTo: 0...plane.height) ?? plane.height)
        var pixels = [UInt8]()
        pixels.reserveCapacity((x1 - x0) * (y1 - y0))
        for y in y0..<y1 { pixels += plane.pixels[(y * plane.width + x0)..<(y * plane.width + x1)] }
        return (LuminancePlane(width: x1 - x0, height: y1 - y0, pixels: pixels), Point(Double(x0), Double(y0)))
    }
}

/// One read of one image: the passes share found results so that no code is reported twice.
private struct Session {
    /// How a pass thresholds its plane: ``BlockBinarizer`` with the mean rule and one of its rules for flat
    /// blocks, or with the midrange rule, or ``GlobalBinarizer``.
    enum Binarizer: Equatable { case block(BlockBinarizer.FlatBlocks), midrange, global }

    let options: ReaderOptions
    let deadline: ContinuousClock.Instant?
    var results: [ReadResult] = []
    /// Whether the last pass left finder patterns it could not account for.
    private var leftovers = false
    /// The passes with local thresholds on the picture as it is (not inverted, not the pyramid's second level)
    /// that left finder patterns unaccounted for: their planes, binary images and scales, and those patterns.
    /// Damage is in print: in the corpus, no pass with a global threshold or inverted found more with
    /// allowances for it.
    private(set) var unexplainedPasses: [(plane: LuminancePlane, binary: BinaryImage, scale: Double, patterns: [FinderPattern],
                                          isLocalThresholds: Bool)] = []

    /// The local thresholds of the picture itself (scale 1, not inverted), kept from the pass that made
    /// them for a search for damaged patterns anywhere.
    private(set) var localThresholds: BinaryImage?

    /// Whether a pass thresholds as the one whose binary image is ``localThresholds``.
    private static func makesLocalThresholds(_ binarizer: Binarizer, scale: Double, inverted: Bool) -> Bool {
        binarizer == .block(.usual) && scale == 1 && !inverted
    }

    /// What the searches for damaged patterns in ``localThresholds`` did, for the search anywhere that ends a
    /// read in the same binary image: the patterns of a scan of the whole picture, when a search near partners
    /// made one (see ``damagedSets(_:in:)``), and the sets tried, by their patterns' centres. The same sets in
    /// the same binary image decode no better a second time.
    private var localDamagedScan: (patterns: [FinderPattern]?, triedSets: Set<[Point]>) = (nil, [])

    /// The most patterns left unaccounted for by a pass that a search for damaged patterns completes.
    static let maximumPartners = 16
    /// The most sets with a damaged pattern a search tries of each kind, best first: those completing
    /// partners, and those anywhere in a picture. Texture and dense data complete pairs with hundreds of
    /// damaged patterns (each set's first look costs tens of µs); in the development corpus, in four
    /// orientations, every set that decoded was among the first four of its kind. Thirty cost a picture
    /// that holds no code up to 1.5 ms more.
    static let maximumDamagedSets = 8

    /// A pass looking for sets with a damaged finder pattern (``FinderPattern/isDamaged``) on a plane an
    /// earlier pass read without them.
    struct DamagedSearch {
        /// First the sets in which a damaged pattern completes two of these patterns, which the earlier pass
        /// found and could not account for...
        let partners: [FinderPattern]
        /// ...with damaged patterns looked for in these regions (everywhere when nil)...
        let regions: [Rect]?
        /// ...then, if set, the other sets with a damaged pattern. Each set is tried only if the first look
        /// at its timing patterns passes.
        let anywhere: Bool
        /// Whether the search is in ``localThresholds``.
        let inLocalThresholds: Bool
    }
    /// Grids sampled so far, and the number of the current pass (each pass has its own binary image).
    private var attempted = AttemptedGrids()
    private var passNumber = 0
    /// The areas of the grids refined so far (``GridRefinement``), one per symbol and kind of threshold, and
    /// whether that was the global one.
    private var refinedAreas: [(area: Quadrilateral, global: Bool)] = []
    /// Whether the current pass thresholds with ``GlobalBinarizer``.
    private var isGlobalPass = false

    init(options: ReaderOptions, deadline: ContinuousClock.Instant?) {
        self.options = options
        self.deadline = deadline
    }

    /// Whether any pass so far grouped finder patterns into a set that could be a symbol.
    private(set) var formedSets = false

    /// Whether another pass might find more.
    var mayBeMissingCodes: Bool { !isDone && (results.isEmpty || leftovers) }

    var isDone: Bool {
        if let limit = options.maximumCodes, results.count >= limit { return true }
        if let deadline, ContinuousClock.now >= deadline { return true }
        return false
    }

    /// Detects and decodes codes in `plane`; `scale` maps its pixels back to the searched image. The
    /// finder patterns a `speculative` pass leaves unaccounted for ask for no later passes: it looks for
    /// codes where nothing suggested one. Those of a pass `addingToLeftovers` add to the earlier passes'
    /// instead of replacing them: it is a second opinion on them. Unless `searchedForDamage` is false, a
    /// search for damaged finder patterns later looks near those it leaves unaccounted for. Nothing is read
    /// when the binary image is identical to `earlier`, one a pass read from the same plane.
    mutating func scan(_ plane: LuminancePlane, scale: Double, inverted: Bool, binarizer: Binarizer, speculative: Bool = false,
                       addingToLeftovers: Bool = false, searchedForDamage: Bool = true, unlessIdenticalTo earlier: BinaryImage? = nil) {
        guard !isDone else { return }
        let binary = switch binarizer {
        case let .block(flatBlocks): BlockBinarizer.binarize(plane, flatBlocks: flatBlocks)
        case .midrange: BlockBinarizer.binarizeAtMidrange(plane)
        case .global: GlobalBinarizer.binarize(plane)
        }
        if let earlier, binary.isIdentical(to: earlier) { return }
        if Self.makesLocalThresholds(binarizer, scale: scale, inverted: inverted) { localThresholds = binary }
        scan(plane, binary: binary, scale: scale, inverted: inverted, binarizer: binarizer, damaged: nil, speculative: speculative,
             addingToLeftovers: addingToLeftovers, searchedForDamage: searchedForDamage)
    }

    /// Tries the sets with a damaged finder pattern (``FinderPattern/isDamaged``) that `search` names in
    /// `binary`, the local thresholds of `plane` that an earlier pass read without them.
    mutating func search(_ search: DamagedSearch, plane: LuminancePlane, binary: BinaryImage, scale: Double) {
        guard !isDone else { return }
        scan(plane, binary: binary, scale: scale, inverted: false, binarizer: .block(.usual), damaged: search)
    }

    /// Detects and decodes codes in `binary`, thresholded from `plane`. With `damaged`, only sets with a
    /// damaged finder pattern are tried, and no Micro QR or rMQR symbols.
    private mutating func scan(_ plane: LuminancePlane, binary: BinaryImage, scale: Double, inverted: Bool, binarizer: Binarizer,
                               damaged: DamagedSearch?, speculative: Bool = false, addingToLeftovers: Bool = false,
                               searchedForDamage: Bool = true) {
        passNumber += 1
        isGlobalPass = binarizer == .global
        let patterns: [FinderPattern]
        var sets: [FinderPatternSet] = []
        if let damaged {
            (patterns, sets) = damagedSets(damaged, in: binary)
        } else {
            patterns = FinderPatternFinder.find(in: binary, rowStep: Self.finderRowStep, until: deadline)
        }
        /// The patterns lying inside any of `codes`.
        func patternsInside(_ codes: [ReadResult]) -> [Int] {
            patterns.indices.filter { index in codes.contains { $0.corners.contains(patterns[index].center * scale) } }
        }
        // Patterns retired from further sets: those of decoded sets and any inside a found code (its
        // finders again, or alignment patterns and data that mimic them).
        var used = Set(patternsInside(results))
        if damaged == nil {
            // Sets with a retired pattern are skipped, yet their other patterns count as grouped, which can
            // make them leftovers that ask for later passes. A speculative pass counts no leftovers: it
            // does not form such sets at all (hundreds, on a sheet of labels).
            sets = FinderPatternGrouper.sets(from: patterns, excluding: speculative ? used : [], until: deadline)
            if !sets.isEmpty { formedSets = true }
        }
        var grouped = Set<Int>()
        // Patterns of sets centred inside a found code: that code again, so no sign of a missed symbol.
        var explained = Set<Int>()
        // Patterns of a set whose grid read as a QR code's timing patterns: QR finders, not Micro QR or rMQR ones.
        var timed = Set<Int>()
        let squares = FinderCorners.Cache()
        defer {
            // A speculative pass's leftovers ask for nothing.
            if !speculative {
                // Patterns that formed a plausible symbol, or that pair with another as two finders of one, but
                // are neither part of a decoded symbol nor inside one (where alignment patterns and data can
                // mimic them) nor in a set centred inside one may belong to a symbol this pass missed.
                let outside = patterns.indices.filter { index in
                    !used.contains(index) && !explained.contains(index)
                        && !results.contains { $0.corners.contains(patterns[index].center * scale) }
                }
                // Dozens left are texture: only those in sets count then.
                let paired = outside.count > 2 * Self.maximumPartners ? [] : outside.filter { index in
                    outside.contains { $0 != index && FinderPatternGrouper.mayShareSymbol(patterns[$0], patterns[index]) }
                }
                // Later passes are for patterns left in sets; the search for damaged patterns is also for pairs.
                let inSets = outside.filter(grouped.contains)
                leftovers = !inSets.isEmpty || (addingToLeftovers && leftovers)
                let unexplained = Set(inSets + paired)
                if !unexplained.isEmpty && damaged == nil && searchedForDamage && binarizer != .global && !inverted {
                    unexplainedPasses.append((plane, binary, scale, unexplained.sorted().map { patterns[$0] },
                                              Self.makesLocalThresholds(binarizer, scale: scale, inverted: inverted)))
                }
            }
        }
        // A sheet of labels forms more sets than the grouper gives (``FinderPatternGrouper/maximumSets``),
        // the labels' own among many that borrow a neighbour's finder: while a batch of them decodes codes,
        // the patterns left are grouped again, without the sets tried already.
        var tried = Set<[Int]>()
        while options.symbologies.contains(.qrCode) && !sets.isEmpty {
            let resultsBefore = results.count
            // Two rounds: first every set's first well-timed grid from the binary image (where nearly every
            // code decodes; a set whose grid times convincingly is tried in full at once), then the remaining
            // grids and then the luminance samples of the sets left. A false set that borrows a real symbol's
            // finder patterns and comes first in the order then costs one grid, not all of them: decoding the
            // real symbol retires it.
            var attempts = sets.map { SetAttempt(set: $0, gridsLeft: damaged == nil ? .max : Self.maximumDamagedSetGrids) }
            var setsPerPattern = [Int](repeating: 0, count: patterns.count)
            for attempt in attempts { for index in attempt.set.indices { setsPerPattern[index] += 1 } }
            for quick in [true, false] {
                if !quick { Self.limitDeferredSets(&attempts) }
                for index in attempts.indices {
                    let set = attempts[index].set
                    if quick { grouped.formUnion(set.indices) }
                    if isDone { return }
                    guard !attempts[index].isExhausted, !set.indices.contains(where: used.contains) else { continue }
                    // A set centred inside a code already found (e.g. from an earlier pass) is that code again.
                    // Its patterns inside found codes are retired already; one outside is not, as it may be a
                    // neighbouring symbol's, which that symbol's own set still needs.
                    let center = (set.topRight.center + set.bottomLeft.center) / 2 * scale
                    if results.contains(where: { $0.corners.contains(center) }) {
                        explained.formUnion(set.indices)
                        continue
                    }
                    if attempts[index].grids == nil {
                        // Relabelling is idempotent: a set deferred from the first round keeps its labels.
                        if attempts[index].missedLook == nil {
                            attempts[index].set = SymbolLocator.reoriented(set, in: binary, cache: squares)
                        }
                        let set = attempts[index].set
                        // A set sharing a pattern with another whose first look misses the timing patterns is
                        // most often a false one: it waits for the second round, by when the other may have
                        // decoded and retired it. A set with a damaged pattern is one of many in dense data:
                        // if its first look misses, it is not tried at all.
                        if quick, damaged != nil || set.indices.contains(where: { setsPerPattern[$0] > 1 }) {
                            let look = SymbolLocator.firstLook(at: set, in: binary, cache: squares)
                            attempts[index].estimate = look.estimate
                            if look.score < GridCheck.samplingScore {
                                attempts[index].isExhausted = damaged != nil
                                attempts[index].missedLook = look.score
                                continue
                            }
                        }
                        attempts[index].grids = SymbolLocator.grids(for: set, in: binary, cache: squares,
                                                                    estimate: attempts[index].estimate)
                    }
                    let found = decode(&attempts[index], quick: quick, binary: binary, plane: plane, scale: scale, inverted: inverted)
                    if attempts[index].grids?.isPromising == true { timed.formUnion(set.indices) }
                    guard let result = found else { continue }
                    used.formUnion(set.indices)
                    used.formUnion(patternsInside([result]))
                    add(result)
                }
            }
            guard damaged == nil, sets.count == FinderPatternGrouper.maximumSets, results.count > resultsBefore else { break }
            tried.formUnion(sets.map(\.indices))
            sets = FinderPatternGrouper.sets(from: patterns, excluding: used, leavingOut: tried, until: deadline)
        }
        // Finder patterns no QR code claimed may each be a Micro QR or rMQR symbol.
        let single = options.symbologies.intersection([.microQRCode, .rectangularMicroQRCode])
        guard !single.isEmpty, damaged == nil else { return }
        for (index, pattern) in patterns.enumerated() where !used.contains(index) && !timed.contains(index) && !explained.contains(index) {
            if isDone { return }
            guard !results.contains(where: { $0.corners.contains(pattern.center * scale) }) else { continue }
            guard let square = squares.square(of: pattern, index: index, in: binary) else { continue }
            let found = (single.contains(.microQRCode) ? decodeMicro(square, binary: binary, plane: plane, scale: scale, inverted: inverted) : nil)
                ?? (single.contains(.rectangularMicroQRCode)
                    ? decodeRMQR(pattern, square: square, binary: binary, plane: plane, scale: scale, inverted: inverted) : nil)
            guard let result = found else { continue }
            used.insert(index)
            add(result)
        }
    }

    /// How far from where two partners place a third pattern its core is looked for: a share of their
    /// distance (for perspective) plus modules.
    static let coreSlack = (share: 0.15, modules: 4.0)

    /// At most this many candidate grids are tried for a set with a damaged finder pattern. Such sets are
    /// mostly texture and dense data, and the grids after a symbol's first few fits (another dimension,
    /// the plain parallelogram, the bottom-right corner nudged about) are for symbols whose finders read
    /// whole: in the development corpus every code read through a damaged pattern decoded from its first
    /// or second grid, while sets that decoded nothing went on through ten or twenty.
    static let maximumDamagedSetGrids = 4

    /// At most this many of a set's grids are sampled from luminance, the first that fit well. Glare,
    /// blur or damage can leave one set with a dozen or more well-timed grids that all miss, each
    /// luminance sample costing 0.1–0.3 ms; in the development corpus, in four orientations, every code
    /// that decoded from a set's luminance samples did so from one of its first four.
    static let maximumLuminanceSamples = 8

    /// At most this many sets whose first look missed are tried in full in a pass's second round, those
    /// whose first looks scored best. Screen moiré and print texture defer hundreds (each costs 10–20 µs);
    /// in the development corpus the sets that decoded in round two after a missed first look were among
    /// the 70 best of their pass.
    static let maximumDeferredSets = 100

    /// The finder scan reads every third row, as zxing-cpp does when trying hard: a finder's centre stone is
    /// three modules tall, so even at 2 px per module two scanned rows cross it. Every second row cost 14 %
    /// more time over the development corpus and read two more of its 2,602 codes in four orientations.
    static let finderRowStep = 3

    /// Leaves only the ``maximumDeferredSets`` best of the sets waiting for round two after a missed first look.
    private static func limitDeferredSets(_ attempts: inout [SetAttempt]) {
        let deferred = attempts.indices.compactMap { index in
            attempts[index].isExhausted ? nil : attempts[index].missedLook.map { (index: index, score: $0) }
        }
        guard deferred.count > maximumDeferredSets else { return }
        let ranked = deferred.sorted { $0.score != $1.score ? $0.score > $1.score : $0.index < $1.index }
        for worse in ranked.dropFirst(maximumDeferredSets) { attempts[worse.index].isExhausted = true }
    }

    /// The patterns of a search for damaged finder patterns, the search's partners first, and its sets:
    /// first those in which a damaged pattern completes two partners, then, if the search is for damaged
    /// patterns anywhere, the other sets with one. In ``localThresholds``, a scan of the whole picture is made
    /// once, and sets an earlier search there tried are left out.
    private mutating func damagedSets(_ search: DamagedSearch, in binary: BinaryImage) -> ([FinderPattern], [FinderPatternSet]) {
        let near: [FinderPattern]
        // Unless something is found first, the search anywhere follows in the local thresholds: when the regions
        // cover a third of the picture or more (their areas summed), the whole picture is scanned once, for both.
        let regionsArea = search.regions?.reduce(0) { $0 + $1.width * $1.height } ?? .infinity
        let scansWhole = search.regions == nil || (results.isEmpty && 3 * regionsArea >= Double(binary.width * binary.height))
        if search.inLocalThresholds && scansWhole {
            let whole = localDamagedScan.patterns ?? FinderPatternFinder.find(in: binary, rowStep: Self.finderRowStep, allowingDamage: true,
                                                                                   until: deadline)
            localDamagedScan.patterns = whole
            near = search.regions.map { regions in whole.filter { pattern in regions.contains { $0.contains(pattern.center) } } } ?? whole
        } else {
            near = FinderPatternFinder.find(in: binary, rowStep: Self.finderRowStep, allowingDamage: true, regions: search.regions,
                                           until: deadline)
        }
        // Where partners place a third pattern, one whose ring is washed out all round shows only its core.
        // A core's centre reads as precisely as a whole pattern's, so it is looked for closer to those places.
        // Where they would cover most of the picture anyway, the whole picture is searched for a few partners
        // (a symbol filling the picture), and not at all for more (texture).
        let picture = Rect(x: 0, y: 0, width: Double(binary.width), height: Double(binary.height))
        var cores: [FinderPattern] = []
        if let smallest = search.partners.map(\.moduleSize).min(), let largest = search.partners.map(\.moduleSize).max(),
           let regions = FinderPatternGrouper.thirdPatternRegions(completing: search.partners, width: binary.width, height: binary.height,
                                                                  slack: Self.coreSlack) ?? (search.partners.count <= 3 ? [picture] : nil) {
            cores = FinderCoreFinder.find(in: binary, regions: regions, moduleSizes: smallest / 1.5...largest * 1.5, until: deadline)
        }
        // A pattern found again where a partner is is that partner.
        let patterns = search.partners + (near + cores).filter { pattern in
            !search.partners.contains { $0.center.distance(to: pattern.center) < max($0.size, pattern.size) / 2 }
        }
        var sets = Array(FinderPatternGrouper.completingSets(from: patterns, partners: Array(search.partners.indices), until: deadline)
            .prefix(Self.maximumDamagedSets))
        if search.anywhere {
            let tried = Set(sets.map(\.indices))
            sets += FinderPatternGrouper.damagedSets(from: patterns, until: deadline).lazy.filter { !tried.contains($0.indices) }.prefix(Self.maximumDamagedSets)
        }
        guard search.inLocalThresholds else { return (patterns, sets) }
        func centres(_ set: FinderPatternSet) -> [Point] { [set.topLeft.center, set.topRight.center, set.bottomLeft.center] }
        let untried = sets.filter { !localDamagedScan.triedSets.contains(centres($0)) }
        localDamagedScan.triedSets.formUnion(untried.map(centres))
        return (patterns, untried)
    }

    private mutating func add(_ result: ReadResult) {
        if !results.contains(where: { Self.isDuplicate($0, result) }) { results.append(result) }
    }

    /// Where decoding one finder pattern set has got to.
    private struct SetAttempt {
        /// Relabelled on its first turn if its finder patterns name another top-left (``SymbolLocator/reoriented(_:in:cache:)``).
        var set: FinderPatternSet
        /// What the first look measured, if the set had one.
        var estimate: SymbolLocator.Estimate?
        /// The first look's timing score, if the set had one and it missed (the set waits for round two).
        var missedLook: Double?
        /// Fitted on the set's first turn.
        var grids: GridCandidates?
        /// Grids whose binary samples did not decode and whose luminance samples are still to be tried.
        var luminancePending: [SamplingGrid] = []
        /// How many more of its candidate grids the set may try.
        var gridsLeft: Int
        /// Every grid has been tried.
        var isExhausted = false
        /// A grid was chosen to be followed along the symbol's module edges (``GridRefinement``).
        var isRefined = false
        /// That grid until it is refined, after the next grid's binary sample (or, when no grid is left, after
        /// the luminance samples).
        var refinementPending: SamplingGrid?
    }

    /// The first of a set's candidate grids that decodes: each grid's sample from the binary image in turn,
    /// then the luminance samples of the first that fit well (``maximumLuminanceSamples``), in the same
    /// order. A luminance sample costs several binary ones (five taps a module, then decoding with erasures
    /// twice), and a symbol whose first grid misses often decodes from the next grid's binary sample (cloth,
    /// or a corner extrapolated from small finder patterns); those of a bent symbol need the refinement,
    /// which still follows the next grid's binary sample. `quick` stops after the first grid that passes
    /// the timing check has been sampled from the binary image, unless it scored
    /// ``GridCheck/convincingScore``; a later call goes on from there. Each grid passing the timing check
    /// marks the candidates promising, which lets their later stages be fitted and tells the caller the
    /// set was a QR code's.
    private mutating func decode(_ attempt: inout SetAttempt, quick: Bool, binary: BinaryImage, plane: LuminancePlane,
                                 scale: Double, inverted: Bool) -> ReadResult? {
        while attempt.gridsLeft > 0, let grid = attempt.grids?.next() {
            attempt.gridsLeft -= 1
            // A grid whose timing patterns read as noise is misplaced or of the wrong dimension.
            let timing = GridCheck.timingScore(grid, binary: binary, minimum: GridCheck.samplingScore)
            guard timing >= GridCheck.samplingScore else { continue }
            attempt.grids?.markPromising()
            if let found = decodeBinary(grid, binary: binary, scale: scale, inverted: inverted) { return found }
            if let bent = attempt.refinementPending {
                attempt.refinementPending = nil
                if let found = decodeRefined(bent, binary: binary, plane: plane, scale: scale, inverted: inverted) { return found }
            }
            // Luminance sampling with erasures is worth its cost only on a grid that fits well.
            if options.accuracy == .thorough && timing >= GridCheck.luminanceScore
                && attempt.luminancePending.count < Self.maximumLuminanceSamples {
                attempt.luminancePending.append(grid)
            }
            if quick && timing < GridCheck.convincingScore { return nil }
            // A grid whose timing patterns read this well lies on a real symbol: if it still misses, the
            // symbol may be bent (printed on cloth, wrapped round a bottle). Once per set, the grid is
            // moved onto the module edges and sampled again, after the next grid's binary sample: where
            // one homography fits after all, the next fit often does, at a fraction of the refinement's cost.
            if timing >= GridCheck.convincingScore && !attempt.isRefined {
                attempt.isRefined = true
                if isFirstRefinement(of: grid, scale: scale) { attempt.refinementPending = grid }
            }
        }
        // An exhausted set is not called again, so what is pending is tried once, here.
        attempt.isExhausted = true
        for grid in attempt.luminancePending {
            if let found = decodeLuminance(grid, plane: plane, scale: scale, inverted: inverted) { return found }
        }
        return attempt.refinementPending.flatMap { decodeRefined($0, binary: binary, plane: plane, scale: scale, inverted: inverted) }
    }

    /// Whether no grid over the same symbol (centred inside `grid`'s area, and of a similar size) was
    /// refined before in a pass with the same kind of threshold (local or global), and records `grid` as
    /// refined. The refinement follows module edges, whose places hardly depend on which local threshold
    /// made them: in the corpus no symbol it missed once decoded when refined again under another local
    /// threshold, and each such try cost milliseconds. Local thresholds beside a dark surround can thin a
    /// small symbol's dark modules and move its edges, where the global threshold keeps them whole
    /// (zxing-cpp/qrcode-4/30.png turned by 270°).
    private mutating func isFirstRefinement(of grid: SamplingGrid, scale: Double) -> Bool {
        let area = grid.corners.map { $0 * scale }
        let seen = refinedAreas.contains { $0.global == isGlobalPass && AttemptedGrids.coverOneSymbol($0.area, area) }
        if !seen { refinedAreas.append((area, isGlobalPass)) }
        return !seen
    }

    /// Grids for a symbol no homography fits, each sampled from the binary image until one decodes, the
    /// last also from luminance: `grid` moved onto the module edges of a bent symbol, and moved once more
    /// from there (the first move measures each anchor's edges through a grid still off by its shift);
    /// then `grid` redrawn through the rows and columns its timing patterns show (a label round a bottle,
    /// whose modules narrow towards the bottle's edges faster than the edges' phase can follow), and that
    /// moved onto the module edges. Nothing when none of them applies.
    private mutating func decodeRefined(_ grid: SamplingGrid, binary: BinaryImage, plane: LuminancePlane, scale: Double,
                                        inverted: Bool) -> ReadResult? {
        var last: SamplingGrid?
        func decodes(_ moved: SamplingGrid?) -> ReadResult? {
            guard let moved else { return nil }
            last = moved
            return decodeBinary(moved, binary: binary, scale: scale, inverted: inverted)
        }
        let warped = GridRefinement.refined(grid, binary: binary)
        if let found = decodes(warped) ?? decodes(warped.flatMap { GridRefinement.refined($0, binary: binary) }) {
            return found
        }
        let aligned = TimingAlignment.aligned(grid, binary: binary)
        if let found = decodes(aligned) ?? decodes(aligned.flatMap { GridRefinement.refined($0, binary: binary) }) {
            return found
        }
        guard options.accuracy == .thorough, let last else { return nil }
        return decodeLuminance(last, plane: plane, scale: scale, inverted: inverted)
    }

    /// A grid sampled from this pass's binary image, unless the same grid was sampled there before.
    private mutating func decodeBinary(_ grid: SamplingGrid, binary: BinaryImage, scale: Double, inverted: Bool) -> ReadResult? {
        guard attempted.insert(grid, scale: scale, sampling: .binary, pass: passNumber),
              let symbol = SymbolDecoder.decode(ModuleSampler.sample(grid, binary: binary))
        else { return nil }
        return result(symbol, grid: grid, scale: scale, inverted: inverted)
    }

    /// A grid sampled from luminance with erasures, unless it counts as sampled there already (``AttemptedGrids``):
    /// its values thresholded as they are, then sharpened (``LuminanceSamples/sharpening``).
    private mutating func decodeLuminance(_ grid: SamplingGrid, plane: LuminancePlane, scale: Double, inverted: Bool) -> ReadResult? {
        guard attempted.insert(grid, scale: scale, sampling: .luminance(scale: scale, inverted: inverted), pass: passNumber)
        else { return nil }
        let samples = ModuleSampler.sample(grid, luminance: plane)
        guard let symbol = samples.decoded(by: { SymbolDecoder.decode($0, confidence: $1) }) else { return nil }
        return result(symbol, grid: grid, scale: scale, inverted: inverted)
    }

    private func decodeMicro(_ square: FinderCorners, binary: BinaryImage, plane: LuminancePlane, scale: Double,
                             inverted: Bool) -> ReadResult? {
        for candidate in MicroQRLocator.candidates(square: square, in: binary, luminance: plane) {
            func decoded(_ grid: SamplingGrid) -> ReadResult? {
                // The grid follows the symbol's own orientation (mirrored or not), so no transposing here.
                if let symbol = MicroQRDecoder.decode(ModuleSampler.sample(grid, binary: binary), format: candidate.format) {
                    return result(symbol, grid: grid, scale: scale, inverted: inverted, mirrored: candidate.mirrored)
                }
                guard options.accuracy == .thorough else { return nil }
                let samples = ModuleSampler.sample(grid, luminance: plane)
                guard let symbol = samples.decoded(by: { MicroQRDecoder.decode($0, format: candidate.format, confidence: $1) })
                else { return nil }
                return result(symbol, grid: grid, scale: scale, inverted: inverted, mirrored: candidate.mirrored)
            }
            for grid in candidate.grids { if let found = decoded(grid) { return found } }
            // Last, the perspective fit redrawn through the timing patterns, for a symbol seen at a steep angle.
            for grid in candidate.toRedraw.map({ MicroQRLocator.redrawn($0, binary: binary) }) ?? [] {
                if let found = decoded(grid) { return found }
            }
        }
        return nil
    }

    private func decodeRMQR(_ pattern: FinderPattern, square: FinderCorners, binary: BinaryImage, plane: LuminancePlane,
                            scale: Double, inverted: Bool) -> ReadResult? {
        for candidate in RMQRLocator.candidates(pattern, square: square, in: binary) {
            let grid = candidate.grid
            let sampled = ModuleSampler.sample(grid, binary: binary)
            if let symbol = RMQRDecoder.decode(sampled, version: candidate.version, level: candidate.level) {
                return result(symbol, grid: grid, scale: scale, inverted: inverted, mirrored: candidate.mirrored)
            }
            guard options.accuracy == .thorough else { continue }
            let samples = ModuleSampler.sample(grid, luminance: plane)
            if let symbol = samples.decoded(by: { RMQRDecoder.decode($0, version: candidate.version, level: candidate.level, confidence: $1) }) {
                return result(symbol, grid: grid, scale: scale, inverted: inverted, mirrored: candidate.mirrored)
            }
        }
        return nil
    }

    /// A result placed in the image. A QR code's grid is sampled unmirrored and the decoder transposes a
    /// mirrored symbol; Micro QR and rMQR grids follow the symbol's own orientation (`mirrored` given).
    private func result(_ symbol: DecodedSymbol, grid: SamplingGrid, scale: Double, inverted: Bool,
                        mirrored: Bool? = nil) -> ReadResult {
        var corners = grid.corners.map { $0 * scale }
        let isMirrored = mirrored ?? symbol.mirrored
        if mirrored == nil && symbol.mirrored {
            // The grid was sampled transposed: the symbol's top-right is the grid's bottom-left.
            corners = Quadrilateral(topLeft: corners.topLeft, topRight: corners.bottomLeft,
                                    bottomRight: corners.bottomRight, bottomLeft: corners.topRight)
        }
        return ReadResult(
            text: symbol.payload.text, bytes: symbol.payload.bytes, charset: symbol.payload.charset,
            charsetGuessed: symbol.payload.charsetGuessed, symbology: symbol.symbology, version: symbol.versionNumber,
            versionName: symbol.versionName, columns: grid.width, rows: grid.height, errorCorrectionLevel: symbol.level, mask: symbol.mask.rawValue,
            mirrored: isMirrored, inverted: inverted, structuredAppend: symbol.payload.structuredAppend, parts: [],
            eciAssignments: symbol.payload.eciAssignments, fnc1: symbol.payload.fnc1, corners: corners,
            correctedCodewords: symbol.correctedCodewords, correctableCodewords: symbol.correctableCodewords)
    }

    /// The same physical code: same content and overlapping position.
    static func isDuplicate(_ a: ReadResult, _ b: ReadResult) -> Bool {
        a.bytes == b.bytes && (a.corners.contains(b.center) || b.corners.contains(a.center))
    }
}
