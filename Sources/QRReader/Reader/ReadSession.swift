import QRCore

/// One read of one image: the passes share found results so that no code is reported twice.
struct ReadSession {
    /// How a pass thresholds its plane: ``BlockBinarizer`` with the mean rule and one of its rules for flat
    /// blocks, or with the midrange rule, or ``GlobalBinarizer``.
    enum Binarizer: Equatable { case block(BlockBinarizer.FlatBlocks), midrange, global }

    let options: ReaderOptions
    let deadline: ContinuousClock.Instant?
    var results: [ReadResult] = []
    /// The centres (in the searched image's pixels) of the finder patterns in sets that the last pass, and the
    /// passes whose leftovers it added to, could not account for. A code found since explains those inside it.
    private var leftoverCentres: [Point] = []
    /// Whether some finder patterns left in sets are still unexplained (``leftoverCentres``).
    private var leftovers: Bool { leftoverCentres.contains { !isInFoundCode($0) } }
    /// Whether the local thresholds of the picture as it is, beside codes they found, left one or two finder
    /// patterns unaccounted for (not grain), at least one of 4 px modules or more whose ring fits a clean
    /// square: a code's finder beside the codes found, whose other two those thresholds lost. Under glare,
    /// paper saturated white makes the blocks around a code flat, and their black points pull its thresholds
    /// below its dark modules; the finder nearest the code's clean side still shows. Such a pattern may pair
    /// with a found code's finders into a set centred in that code, so that it asks for no later pass otherwise.
    private(set) var loneFindersLeft = false
    /// Whether a speculative pass over the picture (the pyramid's second level, read with nothing seeming
    /// missing) grouped finder patterns outside every code found, one of 3 px modules or more there, into a set
    /// that did not decode: two finders of a code printed larger, whose third that level lost, with a pattern of
    /// its data or logo. Its leftovers ask for no later pass, but such a set asks for one look by the other local
    /// rule. (Sets of smaller patterns, as sensor noise forms, asked for it on noisy synthetic pages with codes
    /// found, 14 % more time for no code.)
    private(set) var speculativeSetsLeft = false
    /// The passes with local thresholds (not the pyramid's second level) that left finder patterns unaccounted
    /// for: their planes, binary images and scales, those patterns, and whether the plane was the picture's
    /// negative. Damage is in print: in the corpus, no pass with a global threshold found more with allowances
    /// for it.
    private(set) var unexplainedPasses: [UnexplainedPass] = []
    typealias UnexplainedPass = (plane: LuminancePlane, binary: BinaryImage, scale: Double, patterns: [FinderPattern],
                                 isLocalThresholds: Bool, inverted: Bool)

    /// Whether a pass over the picture as it is (or, if `inverted`, over its negative) left finder patterns
    /// unaccounted for that may be a missed symbol's finders (``missedFinders(of:settingAsideGrain:matching:)``)
    /// whose module size, in pixels of the searched picture, lies in `sizes`.
    func leftFinders(withModulesIn sizes: Range<Double>, inverted: Bool) -> Bool {
        leftMissedFinders(inverted: inverted) { pass, pattern in sizes.contains(pattern.moduleSize * pass.scale) }
    }

    /// Whether a pass over the picture (or, if `inverted`, over its negative) left missed finders
    /// (``missedFinders(of:settingAsideGrain:matching:)``) among those that `matching` takes.
    private func leftMissedFinders(inverted: Bool, settingAsideGrain: Bool = false,
                                   matching: (UnexplainedPass, FinderPattern) -> Bool) -> Bool {
        unexplainedPasses.contains { pass in
            pass.inverted == inverted && !missedFinders(of: pass, settingAsideGrain: settingAsideGrain) { matching(pass, $0) }.isEmpty
        }
    }

    /// The most finder patterns unaccounted for (``unexplainedPasses``, texture included) of module sizes in `sizes`,
    /// in pixels of the searched picture, that one pass over the picture (or, if `inverted`, over its negative) left.
    func mostFindersLeft(withModulesIn sizes: Range<Double>, inverted: Bool = false) -> Int {
        unexplainedPasses.filter { $0.inverted == inverted }.map { pass in pass.patterns.count { sizes.contains($0.moduleSize * pass.scale) } }
            .max() ?? 0
    }

    /// The local thresholds of the picture itself (scale 1, not inverted), kept from the pass that made
    /// them for a search for damaged patterns anywhere.
    private(set) var localThresholds: BinaryImage?

    /// Whether a pass thresholds as the one whose binary image is ``localThresholds``.
    private static func makesLocalThresholds(_ binarizer: Binarizer, scale: Double, inverted: Bool) -> Bool {
        binarizer == .block(.usual) && scale == 1 && !inverted
    }

    /// What the searches for damaged patterns in ``localThresholds`` did, for the search anywhere that ends a
    /// read in the same binary image: the patterns of a scan of the whole picture, when a search near partners
    /// made one (see ``damagedSets(_:in:)``), the patterns the searches near partners found in their regions
    /// otherwise, and the sets tried, by their patterns' centres. The same sets in the same binary image decode
    /// no better a second time.
    private var localDamagedScan: (patterns: [FinderPattern]?, seen: [FinderPattern], triedSets: Set<[Point]>) = (nil, [], [])

    /// The most patterns left unaccounted for by a pass that a search for damaged patterns completes.
    static let maximumPartners = 16

    /// Of the finder patterns `left` unaccounted for in `binary`, those taken for a missed symbol's finders
    /// (the partners a search for damaged patterns completes): up to four (two symbols' two finders each) all
    /// of them; of more, those whose ring fits a square cleanly (``FinderCorners/fitsCleanly(_:in:)``). More
    /// are mostly patterns of texture or sensor noise, which pair with each other so widely that their third
    /// patterns' places cover most of the picture, and the whole picture was then scanned with allowances for
    /// damage (on a noisy page, nearly half its read). In the development corpus in four orientations and 996
    /// synthetic photos this reads the same codes; screening two or three patterns too lost three codes, whose
    /// small blurred finders fit no clean square. Patterns of grain (``FinderPattern/grainModuleSize``) are
    /// not counted against the four: beside one or two specks of sensor noise, a small blurred symbol's two
    /// finders would be screened away too.
    static func likelyFinders(_ left: [FinderPattern], in binary: BinaryImage) -> [FinderPattern] {
        guard left.count > 4 else { return left }
        let unscreened = left.count(where: { !$0.isGrain }) <= 4
        return left.filter { (unscreened && !$0.isGrain) || FinderCorners.fitsCleanly($0, in: binary) }
    }

    /// The patterns `pass` left unaccounted for that may be a missed symbol's finders: of those outside the
    /// codes found since and `matching`, none when more than ``maximumPartners`` (dozens are texture or
    /// screen moiré), else as ``likelyFinders(_:in:)`` takes them. `settingAsideGrain`, patterns of grain
    /// (``FinderPattern/grainModuleSize``, in the pass's plane) are dropped first when there are more than
    /// that many.
    func missedFinders(of pass: UnexplainedPass, settingAsideGrain: Bool = false,
                       matching: (FinderPattern) -> Bool = { _ in true }) -> [FinderPattern] {
        var left = pass.patterns.filter { matching($0) && !isInFoundCode($0.center * pass.scale) }
        if settingAsideGrain && left.count > Self.maximumPartners {
            left.removeAll(where: \.isGrain)
        }
        return left.count <= Self.maximumPartners ? Self.likelyFinders(left, in: pass.binary) : []
    }

    /// Whether passes at scales finer than `scale` left missed finders
    /// (``missedFinders(of:settingAsideGrain:matching:)``) that a pass at `scale` cannot show, their modules under
    /// 2 px there. Sensor noise on a page can leave dozens of patterns of one or two pixels beside a code's few
    /// larger ones: they are set aside here, not taken for texture that hides the code (4 more codes in 1,296
    /// noisy synthetic photos, none fewer, for 1–2 % more time). The search for damaged patterns keeps its
    /// partners as they were: near the patterns left after setting the grain aside it read no more codes, for
    /// 9–13 % more time on such pages. Asked of the passes over the picture, or, if `inverted`, over its negative.
    func leftFindersHidden(atScale scale: Double, inverted: Bool) -> Bool {
        leftMissedFinders(inverted: inverted, settingAsideGrain: true) { pass, pattern in
            pass.scale < scale && pattern.moduleSize * pass.scale < FinderPattern.grainModuleSize * scale
        }
    }

    /// The most sets with a damaged pattern a search tries of each kind, best first: those completing
    /// partners, those anywhere in a picture, and those a stand-in completes. Texture and dense data complete
    /// pairs with hundreds of damaged patterns (each set's first look costs tens of µs); in the development
    /// corpus, in four orientations, every set that decoded was among the first four of its kind. Thirty cost
    /// a picture that holds no code up to 1.5 ms more.
    static let maximumDamagedSets = 8

    /// Stand-ins for a destroyed third finder pattern (``FinderPatternGrouper/standInThirdPatterns(completing:width:height:)``)
    /// complete at most this many partners, six places per pair of them: more partners are texture or data.
    /// A sheet of labels, several of them damaged, leaves two partners per damaged label: with four allowed,
    /// 150 synthetic sheets (seed 2077) read 5,348 of their 5,361 labels, with eight 5,353 in the same time
    /// (sixteen read no more; seeds 5 and 112: 2 and 6 more); noisy synthetic pages took 1 % longer, and the
    /// corpus read the same codes.
    static let maximumStandInPartners = 8

    /// The most damaged patterns a search anywhere in a picture groups into sets; its scan stops past that
    /// many. In the development corpus, in four orientations, such a search found at most 46 patterns, and
    /// read a code only where it found six or fewer; photos of noisy paper show hundreds, and scanning and
    /// grouping them all cost up to 18 ms.
    static let maximumDamagedPatternsAnywhere = 100

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
    /// The storage of the binary images no longer needed (see ``BitRecycler``).
    private let recycler = BitRecycler()
    /// Grids sampled so far, and the number of the current pass (each pass has its own binary image).
    private var attempted = AttemptedGrids()
    private var passNumber = 0
    /// The areas of the grids refined so far (``GridRefinement``), one per symbol, kind of threshold and kind
    /// of grid: whether the threshold was the global one, whether the grid was a bent symbol's (a mesh pinned
    /// to the finders or a cylinder), whether a search for damaged patterns refined it, and whether its timing
    /// was convincing.
    private var refinedAreas: [(area: Quadrilateral, global: Bool, lowered: Bool, mesh: Bool, damaged: Bool, convincing: Bool)] = []
    /// Whether the current pass thresholds with ``GlobalBinarizer``.
    private var isGlobalPass = false
    /// Whether the current pass reads a plane with its bright spots lowered (``LuminancePlane/clipped(at:)``),
    /// whose luminance and module edges differ from the plane's beside them.
    private var isHighlightsLoweredPass = false
    /// Whether the current pass is a search for damaged finder patterns (``search(_:plane:binary:scale:)``).
    private var isDamagedSearch = false

    init(options: ReaderOptions, deadline: ContinuousClock.Instant?) {
        self.options = options
        self.deadline = deadline
    }

    /// Whether any pass so far grouped finder patterns into a set that could be a symbol.
    private(set) var formedSets = false

    /// Sets whose grids read as a QR code's timing patterns, or whose version information read beside their
    /// finders, and yet did not decode, none of their patterns in a decoded set: their centres, module sizes and
    /// half the distance between their outer finders' centres, in the picture's pixels, and whether a pass over
    /// its negative left them.
    private var missedSymbols: [(center: Point, moduleSize: Double, reach: Double, inverted: Bool)] = []

    /// Squares around the symbols that sets read as a QR code's (``missedSymbols``) without decoding, with
    /// modules (in pixels of the searched picture) in `sizes`, outside every code found since; each square
    /// holds its symbol at any turn, with a margin of a fifth and eight modules, and none is centred in an
    /// earlier one (sets over one symbol, from several passes). At most ``maximumMissedSymbolRegions``. Those
    /// of passes over the picture, or, if `inverted`, over its negative.
    func missedSymbolRegions(withModulesIn sizes: Range<Double>, inverted: Bool) -> [Rect] {
        var regions: [Rect] = []
        for miss in missedSymbols where miss.inverted == inverted && sizes.contains(miss.moduleSize) && !isInFoundCode(miss.center) {
            guard regions.count < Self.maximumMissedSymbolRegions else { break }
            guard !regions.contains(where: { $0.contains(miss.center) }) else { continue }
            let half = miss.reach * 1.2 + 8 * miss.moduleSize
            // On the picture's grid of blocks, so that its blocks away from the edges threshold as the picture's.
            let block = Double(BlockBinarizer.blockSize)
            let x = max(0, ((miss.center.x - half) / block).rounded(.down) * block)
            let y = max(0, ((miss.center.y - half) / block).rounded(.down) * block)
            regions.append(Rect(x: x, y: y, width: miss.center.x + half - x, height: miss.center.y + half - y))
        }
        return regions
    }

    /// The most regions ``missedSymbolRegions(withModulesIn:)`` gives: a bound for pictures of many failing symbols.
    static let maximumMissedSymbolRegions = 4

    /// Adds the codes that `read`, of a cut of the picture, found (their corners moved by the cut's
    /// `origin`), up to ``ReaderOptions/maximumCodes``, and whether it ran out of time.
    mutating func adopt(_ read: ReadSession, from origin: Point) {
        if read.ranOutOfTime { ranOutOfTime = true }
        for result in read.results {
            if let limit = options.maximumCodes, results.count >= limit { return }
            add(result.moved(by: origin))
        }
    }

    /// Whether the deadline stopped the search while it still had work to do (see ``isDone``).
    private(set) var ranOutOfTime = false

    /// Whether another pass might find more. The deadline is asked last: a search that has nothing left to
    /// do has not run out of time.
    var mayBeMissingCodes: Bool { mutating get { (results.isEmpty || leftovers) && !isDone } }

    /// Whether the search must stop: enough codes found, or the deadline passed. Asked only where work is
    /// about to start, so a deadline found passed here marks the search as cut short (``ranOutOfTime``).
    var isDone: Bool {
        mutating get {
            if let limit = options.maximumCodes, results.count >= limit { return true }
            if let deadline, ContinuousClock.now >= deadline {
                ranOutOfTime = true
                return true
            }
            return false
        }
    }

    /// Detects and decodes codes in `plane`; `scale` maps its pixels back to the searched image. The
    /// finder patterns a `speculative` pass leaves unaccounted for ask for no later passes: it looks for
    /// codes where nothing suggested one. Those of a pass `addingToLeftovers` add to the earlier passes'
    /// instead of replacing them: it is a second opinion on them. Unless `searchedForDamage` is false, a
    /// search for damaged finder patterns later looks near those it leaves unaccounted for. Nothing is read
    /// when the binary image is identical to `earlier`, one a pass read from the same plane. A plane with
    /// its `highlightsLowered` counts as another plane than the one at its scale for luminance samples and
    /// refinements.
    mutating func scan(_ plane: LuminancePlane, scale: Double, inverted: Bool, binarizer: Binarizer, speculative: Bool = false,
                       addingToLeftovers: Bool = false, searchedForDamage: Bool = true, unlessIdenticalTo earlier: BinaryImage? = nil,
                       highlightsLowered: Bool = false) {
        guard !isDone else { return }
        isHighlightsLoweredPass = highlightsLowered
        defer { isHighlightsLoweredPass = false }
        let binary = switch binarizer {
        case let .block(flatBlocks): BlockBinarizer.binarize(plane, flatBlocks: flatBlocks, reusing: recycler)
        case .midrange: BlockBinarizer.binarizeAtMidrange(plane, reusing: recycler)
        case .global: GlobalBinarizer.binarize(plane, reusing: recycler)
        }
        // What this pass does not keep for later searches, the next pass of its size thresholds into.
        defer {
            if !(localThresholds?.sharesStorage(with: binary) ?? false)
                && !unexplainedPasses.contains(where: { $0.binary.sharesStorage(with: binary) }) {
                recycler.recycle(binary)
            }
        }
        if let earlier, binary.isIdentical(to: earlier) { return }
        if Self.makesLocalThresholds(binarizer, scale: scale, inverted: inverted) && !speculative { localThresholds = binary }
        scan(plane, binary: binary, scale: scale, inverted: inverted, binarizer: binarizer, damaged: nil, speculative: speculative,
             addingToLeftovers: addingToLeftovers, searchedForDamage: searchedForDamage)
    }

    /// Tries the sets with a damaged finder pattern (``FinderPattern/isDamaged``) that `search` names in
    /// `binary`, the local thresholds of `plane` (the picture's negative if `inverted`) that an earlier pass read
    /// without them.
    mutating func search(_ search: DamagedSearch, plane: LuminancePlane, binary: BinaryImage, scale: Double, inverted: Bool = false) {
        guard !isDone else { return }
        scan(plane, binary: binary, scale: scale, inverted: inverted, binarizer: .block(.usual), damaged: search)
    }

    /// Detects and decodes codes in `binary`, thresholded from `plane`. With `damaged`, only sets with a
    /// damaged finder pattern are tried, and no Micro QR or rMQR symbols.
    private mutating func scan(_ plane: LuminancePlane, binary: BinaryImage, scale: Double, inverted: Bool, binarizer: Binarizer,
                               damaged: DamagedSearch?, speculative: Bool = false, addingToLeftovers: Bool = false,
                               searchedForDamage: Bool = true) {
        passNumber += 1
        isGlobalPass = binarizer == .global
        isDamagedSearch = damaged != nil
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
            // make them leftovers that ask for later passes; sets of retired patterns alone count nothing, and
            // are not formed (hundreds, on a sheet of labels). A speculative pass counts no leftovers: it
            // forms no sets with retired patterns at all.
            sets = FinderPatternGrouper.sets(from: patterns, excluding: speculative ? used : [], retired: speculative ? [] : used,
                                             until: deadline)
            if !sets.isEmpty { formedSets = true }
        }
        // The finder scan and the groupers stop at the deadline with what they have: the pass was cut short.
        if isDone { return }
        var grouped = Set<Int>()
        // Patterns of sets centred inside a found code: that code again, so no sign of a missed symbol.
        var explained = Set<Int>()
        // Patterns of a set whose grid read as a QR code's timing patterns: QR finders, not Micro QR or rMQR ones.
        var timed = Set<Int>()
        // The sets whose grids did so, or whose version information read beside their finders, and yet did not
        // decode: signs of a missed symbol.
        var missedSets: [FinderPatternSet] = []
        // The grids of Micro QR and rMQR symbols whose format information and timing modules read around a
        // lone finder pattern, and yet did not decode: signs of a missed symbol too.
        var missedSmallSymbols: [SamplingGrid] = []
        let squares = FinderCorners.Cache()
        defer {
            // Patterns that formed a plausible symbol, or that pair with another as two finders of one, but are
            // neither part of a decoded symbol nor inside one (where alignment patterns and data can mimic them)
            // may belong to a symbol this pass missed. Those of sets centred inside a found code ask for no later
            // passes; they still pair, for the search for damaged patterns: on a sheet of labels, a label whose
            // third finder is blotted leaves two whose every set straddles a neighbour found (with reading through
            // holed stones, ``FinderPatternFinder/holedStone(_:)``, nine more labels in 48 synthetic sheets, for
            // 1.04x their time). A stand-in is no sign of anything.
            let unclaimed = patterns.indices.filter { index in
                !patterns[index].isStandIn && !used.contains(index) && !isInFoundCode(patterns[index].center * scale)
            }
            let outside = unclaimed.filter { !explained.contains($0) }
            // Later passes are for patterns left in sets; the search for damaged patterns is also for pairs.
            let inSets = outside.filter(grouped.contains)
            // A speculative pass's leftovers ask for nothing, but for a set that did not decode the midrange look
            // (``speculativeSetsLeft``).
            if speculative {
                if !inverted && !speculativeSetsLeft {
                    speculativeSetsLeft = inSets.contains { patterns[$0].moduleSize >= 3 }
                }
            } else {
                if damaged == nil {
                    missedSymbols += missedSets.filter { !$0.indices.contains(where: used.contains) }.map { set in
                        (set.center * scale, set.moduleSize * scale, (set.topRight.center - set.bottomLeft.center).length / 2 * scale, inverted)
                    }
                    missedSymbols += missedSmallSymbols.map { grid in
                        (grid.pixel(Double(grid.width) / 2, Double(grid.height) / 2) * scale, grid.moduleSize * scale,
                         grid.corners.topLeft.distance(to: grid.corners.bottomRight) / 2 * scale, inverted)
                    }
                }
                // Dozens left are texture: only those in sets count then.
                let textureCount = 2 * Self.maximumPartners
                let paired = unclaimed.count > textureCount ? [] : unclaimed.filter { index in
                    unclaimed.contains { $0 != index && FinderPatternGrouper.mayShareSymbol(patterns[$0], patterns[index]) }
                }
                leftoverCentres = inSets.map { patterns[$0].center * scale } + (addingToLeftovers ? leftoverCentres : [])
                if Self.makesLocalThresholds(binarizer, scale: scale, inverted: inverted) && damaged == nil {
                    let lone = unclaimed.filter { !patterns[$0].isGrain }
                    if !results.isEmpty && (1...2).contains(lone.count) {
                        loneFindersLeft = lone.contains { index in
                            patterns[index].moduleSize >= 4 && FinderCorners.fitsCleanly(patterns[index], in: binary)
                        }
                    }
                }
                let unexplained = Set(inSets + paired)
                if !unexplained.isEmpty && damaged == nil && searchedForDamage && binarizer != .global {
                    unexplainedPasses.append((plane, binary, scale, unexplained.sorted().map { patterns[$0] },
                                              Self.makesLocalThresholds(binarizer, scale: scale, inverted: inverted), inverted))
                }
            }
        }
        // A sheet of labels forms more sets than the grouper gives (``FinderPatternGrouper/maximumSets``),
        // the labels' own among many that borrow a neighbour's finder: while a batch of them decodes codes,
        // the patterns left are grouped again, without the sets tried already.
        var tried = Set<[Int]>()
        /// Whether `set` is centred inside a code already found (e.g. from an earlier pass): that code again.
        func isInsideFoundCode(_ set: FinderPatternSet) -> Bool {
            isInFoundCode(set.center * scale)
        }
        /// Whether `set`'s finder centres enclose whole a code found that its centre lies in: a larger symbol
        /// around a code printed in its data, or on a sheet of labels three labels' finders around a fourth.
        func enclosesFoundCode(_ set: FinderPatternSet) -> Bool {
            let centres = set.parallelogram.map { $0 * scale }
            let centre = set.center * scale
            return results.contains { found in
                found.corners.contains(centre) && found.corners.corners.allSatisfy(centres.contains)
            }
        }
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
            // The sets whose first look missed that round two tries (``deferredSetsToTry(_:live:)``).
            var deferredToTry = Set<Int>()
            // First looks missed in this batch since its last decoded set, at sets of grain and at others
            // (see ``maximumMissedLooks`` and ``maximumMissedGrainLooks``).
            var missedLooks = 0, missedGrainLooks = 0
            for quick in [true, false] {
                if !quick {
                    deferredToTry = Self.deferredSetsToTry(attempts) { set in
                        !set.indices.contains(where: used.contains) && !isInsideFoundCode(set)
                    }
                }
                for index in attempts.indices {
                    let set = attempts[index].set
                    if quick { grouped.formUnion(set.indices) }
                    if isDone { return }
                    guard !attempts[index].isExhausted, !set.indices.contains(where: used.contains) else { continue }
                    // A set inside a found code is that code again. Its patterns inside found codes are retired
                    // already; one outside is not, as it may be a neighbouring symbol's, which that symbol's own
                    // set still needs. One whose finders enclose the code whole may be a larger symbol around it
                    // (qrcode-2/16, where zxing-cpp reads both): round two gives it a first look, when the labels
                    // round a label on a sheet, which form many such sets, have decoded and retired their patterns.
                    let inside = isInsideFoundCode(set)
                    let around = inside && !quick && enclosesFoundCode(set)
                    if inside && !around {
                        explained.formUnion(set.indices)
                        continue
                    }
                    if attempts[index].grids == nil {
                        if attempts[index].missedLook != nil && !deferredToTry.contains(index) { continue }
                        // A set sharing a pattern with another whose first look misses the timing patterns is
                        // most often a false one: it waits for the second round, by when the other may have
                        // decoded and retired it. A set with a damaged pattern is one of many in dense data:
                        // if its first look misses, it is not tried at all.
                        let needsLook = around || quick && (damaged != nil || set.indices.contains(where: { setsPerPattern[$0] > 1 }))
                        // Past ``maximumMissedLooks`` (of grain, ``maximumMissedGrainLooks``) the batch's other
                        // such sets are left untried (still grouped).
                        let isGrain = set.isGrain
                        if needsLook && (isGrain ? missedGrainLooks >= Self.maximumMissedGrainLooks
                                                 : missedLooks >= Self.maximumMissedLooks) {
                            attempts[index].isExhausted = true
                            continue
                        }
                        // Relabelling is idempotent: a set deferred from the first round keeps its labels.
                        if attempts[index].missedLook == nil {
                            attempts[index].set = SymbolLocator.reoriented(set, in: binary, cache: squares)
                        }
                        let set = attempts[index].set
                        if needsLook {
                            let look = SymbolLocator.firstLook(at: set, in: binary, cache: squares)
                            attempts[index].estimate = look.estimate
                            if look.score < GridCheck.samplingScore {
                                attempts[index].isExhausted = damaged != nil
                                attempts[index].missedLook = look.score
                                if isGrain { missedGrainLooks += 1 } else { missedLooks += 1 }
                                continue
                            }
                        }
                        attempts[index].grids = SymbolLocator.grids(for: set, in: binary, cache: squares,
                                                                    estimate: attempts[index].estimate)
                    }
                    let found = decode(&attempts[index], quick: quick, binary: binary, plane: plane, scale: scale, inverted: inverted)
                    let promising = attempts[index].grids?.isPromising == true
                    if promising { timed.formUnion(set.indices) }
                    // Version information read beside its finders is as sure a sign of a missed symbol as timing
                    // patterns that read: its modules may be too small for any grid to time.
                    if found == nil && attempts[index].isExhausted && (promising || attempts[index].estimate?.confirmed == true) {
                        missedSets.append(set)
                    }
                    guard let result = found else { continue }
                    missedLooks = 0
                    missedGrainLooks = 0
                    used.formUnion(set.indices)
                    used.formUnion(patternsInside([result]))
                    add(result)
                }
            }
            guard damaged == nil, sets.count == FinderPatternGrouper.maximumSets, results.count > resultsBefore else { break }
            tried.formUnion(sets.map(\.indices))
            sets = FinderPatternGrouper.sets(from: patterns, excluding: used, leavingOut: tried, until: deadline)
        }
        // Finder patterns no QR code claimed may each be a Micro QR or rMQR symbol, unless they are texture
        // (``FinderPatternGrouper/texturePatterns``): on a megapixel tiled with finder-like squares, trying
        // each of their thousands took half the time of the pass.
        // Asked one by one, not as a set's intersection: a process's first read paid the runtime's lookup of
        // the new set's type, a few tenths of a millisecond.
        let micro = options.symbologies.contains(.microQRCode), rectangular = options.symbologies.contains(.rectangularMicroQRCode)
        guard micro || rectangular, damaged == nil, patterns.count <= FinderPatternGrouper.texturePatterns else { return }
        for (index, pattern) in patterns.enumerated() where !used.contains(index) && !timed.contains(index) && !explained.contains(index) {
            if isDone { return }
            guard !isInFoundCode(pattern.center * scale) else { continue }
            guard let square = squares.square(of: pattern, index: index, in: binary) else { continue }
            var located: SamplingGrid?
            let found = (micro ? decodeMicro(square, binary: binary, plane: plane, scale: scale, inverted: inverted, located: &located) : nil)
                ?? (rectangular ? decodeRMQR(pattern, square: square, binary: binary, plane: plane, scale: scale, inverted: inverted,
                                             located: &located) : nil)
            guard let result = found else {
                if let located { missedSmallSymbols.append(located) }
                continue
            }
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

    /// In a batch of sets, after this many first looks have missed since the last set that decoded, the
    /// batch's other sets that would need a first look are left untried (they still count as grouped, so
    /// their patterns still ask for later passes). Sensor noise on a blank page forms the grouper's 400 sets
    /// from twenty patterns of one or two pixels, and each first look costs a few microseconds. In the
    /// development corpus in four orientations and in 474 synthetic photos and sheets, a set that decoded
    /// followed at most 104 missed looks (high_version/image010, a large symbol whose data forms a hundred
    /// false triples on the pyramid's first level), most fewer than 20: the cap leaves about twice that
    /// margin, as a symbol denser still forms more.
    static let maximumMissedLooks = 200

    /// The same for sets of three specks of grain (``FinderPatternSet/isGrain``), counted apart. On a noisy
    /// photo they are most of the sets: in 450 synthetic photos, nine sets decoded (in round two) after
    /// their batch's 200 missed looks, up to all 200 of them at grain. With grain sets given no more looks
    /// once this many of them have missed, those photos take 0.94x the time, with the same codes read. A
    /// symbol of modules under two pixels (a clean small image) decoded after at most 14 missed looks at
    /// grain in the development corpus in four orientations.
    static let maximumMissedGrainLooks = 32

    /// Of the sets whose first look missed, round two tries in full at most this many in each of two orders:
    /// the grouper's (``FinderPatternGrouper``: square-like triples first) and their first looks' scores.
    /// Screen moiré, print texture and sensor noise defer hundreds, each then fitted and timed in all its
    /// grids: photos of noisy paper spent most of their time here. Neither order alone ranks every symbol
    /// early: in the development corpus in four orientations and in 450 synthetic photos, every set that
    /// decoded in round two was among the first 6 of its pass in one order or the other, but one was 34th
    /// in the grouper's order and one 38th by score (a first look at the wrong dimension reads the timing
    /// patterns as noise however well the finders fit).
    static let maximumDeferredSets = 16

    /// The finder scan reads every third row, as zxing-cpp does when trying hard: a finder's centre stone is
    /// three modules tall, so even at 2 px per module two scanned rows cross it. Every second row cost 14 %
    /// more time over the development corpus and read two more of its 2,602 codes in four orientations.
    static let finderRowStep = 3

    /// The indices of the sets waiting for round two after a missed first look that it tries: among those
    /// still `live` (not retired by a symbol decoded since), the first ``maximumDeferredSets`` in the
    /// grouper's order and the ``maximumDeferredSets`` whose first looks scored best.
    private static func deferredSetsToTry(_ attempts: [SetAttempt], live: (FinderPatternSet) -> Bool) -> Set<Int> {
        let deferred = attempts.indices.filter { index in
            !attempts[index].isExhausted && attempts[index].missedLook != nil && live(attempts[index].set)
        }
        let byScore = deferred.sorted { a, b in
            let (scoreA, scoreB) = (attempts[a].missedLook ?? 0, attempts[b].missedLook ?? 0)
            return scoreA != scoreB ? scoreA > scoreB : a < b
        }
        return Set(deferred.prefix(maximumDeferredSets)).union(byScore.prefix(maximumDeferredSets))
    }

    /// The patterns of a search for damaged finder patterns, the search's partners first and stand-ins for
    /// destroyed ones last, and its sets: first those in which a damaged pattern completes two partners, then,
    /// if the search is for damaged patterns anywhere, the other sets with one, then those a stand-in
    /// completes. In ``localThresholds``, a scan of the whole picture is made once, and sets an earlier search
    /// there tried are left out.
    private mutating func damagedSets(_ search: DamagedSearch, in binary: BinaryImage) -> ([FinderPattern], [FinderPatternSet]) {
        let near: [FinderPattern]
        // Unless something is found first, the search anywhere follows in the local thresholds: when the regions
        // cover a third of the picture or more (their areas summed), the whole picture is scanned once, for both.
        let regionsArea = search.regions?.reduce(0) { $0 + $1.width * $1.height } ?? .infinity
        let scansWhole = search.regions == nil || (results.isEmpty && 3 * regionsArea >= Double(binary.width * binary.height))
        if search.inLocalThresholds && search.anywhere && !results.isEmpty && localDamagedScan.patterns == nil {
            // Beside codes found, the search anywhere scans nothing: it groups what the searches near partners
            // saw, which can hold a symbol all of whose finders are damaged (a scan of the whole picture
            // made the corpus 10 % slower for the one such code in it).
            near = localDamagedScan.seen
        } else if search.inLocalThresholds && scansWhole {
            // A search anywhere is the last to use the scan: it stops once it has found too many to group.
            let whole = localDamagedScan.patterns ?? FinderPatternFinder.find(
                in: binary, rowStep: Self.finderRowStep, allowingDamage: true,
                maximumDamaged: search.anywhere ? Self.maximumDamagedPatternsAnywhere : .max, until: deadline)
            localDamagedScan.patterns = whole
            near = search.regions.map { regions in whole.filter { pattern in regions.contains { $0.contains(pattern.center) } } } ?? whole
        } else {
            near = FinderPatternFinder.find(in: binary, rowStep: Self.finderRowStep, allowingDamage: true, regions: search.regions,
                                           until: deadline)
            // Past the most the search anywhere groups, more are texture.
            if search.inLocalThresholds && localDamagedScan.seen.count <= Self.maximumDamagedPatternsAnywhere {
                localDamagedScan.seen += near.filter { pattern in
                    !localDamagedScan.seen.contains { $0.coincides(with: pattern) }
                }
            }
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
        var patterns = search.partners + (near + cores).filter { pattern in
            !search.partners.contains { $0.coincides(with: pattern) }
        }
        var sets = Array(FinderPatternGrouper.completingSets(from: patterns, partners: Array(search.partners.indices), until: deadline)
            .prefix(Self.maximumDamagedSets))
        // Hundreds of damaged patterns anywhere are texture or sensor noise, where grouping them costs
        // milliseconds and forms only false sets.
        if search.anywhere && patterns.count(where: \.isDamaged) <= Self.maximumDamagedPatternsAnywhere {
            let tried = Set(sets.map(\.indices))
            sets += FinderPatternGrouper.damagedSets(from: patterns, until: deadline).lazy.filter { !tried.contains($0.indices) }.prefix(Self.maximumDamagedSets)
        }
        // Last, a third pattern destroyed beyond any reading (a stone blotted away, a corner torn off): stand-ins
        // where a few partners place it, tried after every set of patterns found, so that a stand-in, fitting a
        // square better than a real pattern seen in perspective, does not crowd that pattern's set out.
        if search.partners.count <= Self.maximumStandInPartners {
            let standIns = FinderPatternGrouper.standInThirdPatterns(completing: search.partners, width: binary.width, height: binary.height)
            let thirds = Array(patterns.count..<(patterns.count + standIns.count))
            patterns += standIns
            sets += FinderPatternGrouper.completingSets(from: patterns, partners: Array(search.partners.indices), thirds: thirds,
                                                        until: deadline).prefix(Self.maximumDamagedSets)
        }
        guard search.inLocalThresholds else { return (patterns, sets) }
        func centres(_ set: FinderPatternSet) -> [Point] { [set.topLeft.center, set.topRight.center, set.bottomLeft.center] }
        let untried = sets.filter { !localDamagedScan.triedSets.contains(centres($0)) }
        localDamagedScan.triedSets.formUnion(untried.map(centres))
        return (patterns, untried)
    }

    /// Whether `point` (in pixels of the searched image) lies inside a code found so far.
    func isInFoundCode(_ point: Point) -> Bool {
        results.contains { $0.corners.contains(point) }
    }

    /// The codes found so far with their quiet zones, taken as 5 modules wide: where a code's own paper lies.
    var foundCodesWithQuietZones: [Quadrilateral] {
        results.map { code in
            let modules = Double(max(1, min(code.columns, code.rows)))
            let centre = code.corners.center
            return Quadrilateral(code.corners.corners.map { centre + ($0 - centre) * ((modules + 10) / modules) })
        }
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
        /// Nothing more is tried for the set: every grid has been, or its first look missed in a search for
        /// damaged patterns, or its batch ran out of first looks (``maximumMissedLooks``).
        var isExhausted = false
        /// Whether the grid chosen last to be followed along the symbol's module edges (``GridRefinement``) timed
        /// convincingly; nil while none was.
        var refinedConvincingly: Bool?
        /// That grid until it is refined, after the next grid's binary sample (or, when no grid is left, after
        /// the luminance samples).
        var refinementPending: SamplingGrid?
        /// The set's first convincing grid whose binary sample missed, until its luminance sample, after the next
        /// grid's binary sample (or, when no grid is left, first of the luminance samples).
        var convincingLuminancePending: SamplingGrid?
        /// Whether the set has had such a grid.
        var hadConvincingMiss = false
    }

    /// The first of a set's candidate grids that decodes: each grid's sample from the binary image in turn (the
    /// first convincing grid that misses there sampled from luminance after the next grid's binary sample), then
    /// the luminance samples of the first that fit well (``maximumLuminanceSamples``), in the same order. A
    /// luminance sample costs several binary ones (five taps a module, then decoding with erasures twice), and
    /// a symbol whose first grid misses often decodes from the next grid's binary sample (cloth, or a corner
    /// extrapolated from small finder patterns); those of a bent symbol need the refinement, which still
    /// follows the next grid's binary sample. `quick` stops after the first grid that passes
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
            // A grid that times convincingly lies on the symbol: where its binary sample misses, blur, glare or
            // a dense symbol's small modules are likelier than a misplaced grid, and its luminance sample (with
            // erasures) costs less than the refinement and the set's other grids. The first such grid of a set is
            // sampled so after the next grid's binary sample (the next fit often decodes, as for the refinement),
            // by the fast reader too, which samples no other grid from luminance: in the corpus it then read 4 more
            // codes (3-6 turned) in 0.96x its time; the thorough reader read the same codes in 0.98x.
            if let pending = attempt.convincingLuminancePending {
                attempt.convincingLuminancePending = nil
                if let found = decodeLuminance(pending, plane: plane, scale: scale, inverted: inverted) { return found }
            }
            if timing >= GridCheck.convincingScore && !attempt.hadConvincingMiss {
                attempt.hadConvincingMiss = true
                attempt.convincingLuminancePending = grid
            }
            if let bent = attempt.refinementPending {
                attempt.refinementPending = nil
                if let found = decodeRefined(bent, binary: binary, plane: plane, scale: scale, inverted: inverted) { return found }
            }
            // A mesh pinned to the finder patterns (``SymbolLocator/finderMesh(_:squares:transform:dimension:)``)
            // or a cylinder (``CylinderProjection``) comes closest on a symbol bent round a bottle, where the rest
            // of the bend is left for the module edges to show: one that times convincingly is refined at once
            // (once per symbol and kind of threshold, as the homographies are), and any that fits well is
            // sampled from luminance, however many of the homographies were.
            if attempt.grids?.isInLastStage == true {
                if timing >= GridCheck.convincingScore && isFirstRefinement(of: grid, scale: scale, mesh: true),
                   let found = decodeRefined(grid, binary: binary, plane: plane, scale: scale, inverted: inverted) {
                    return found
                }
                if options.accuracy == .thorough && timing >= GridCheck.luminanceScore { attempt.luminancePending.append(grid) }
                continue
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
            // A bent symbol's grid often times a module or two short of convincing (a crumpled T-shirt label
            // turned by 180°, zxing-cpp/qrcode-4/33, at 0.85–0.88 rather than 0.92 upright): the first grid
            // that fits well is refined, and the first convincing grid too if it was not that one (a small
            // blurred symbol read enlarged, curved/image036, reads only from its convincing grid refined).
            let convincing = timing >= GridCheck.convincingScore
            if timing >= GridCheck.luminanceScore
                && (attempt.refinedConvincingly == nil || convincing && attempt.refinedConvincingly == false) {
                attempt.refinedConvincingly = convincing
                if isFirstRefinement(of: grid, scale: scale, convincing: convincing) { attempt.refinementPending = grid }
            }
        }
        // An exhausted set is not called again, so what is pending is tried once, here.
        attempt.isExhausted = true
        if let pending = attempt.convincingLuminancePending,
           let found = decodeLuminance(pending, plane: plane, scale: scale, inverted: inverted) {
            return found
        }
        for grid in attempt.luminancePending {
            if let found = decodeLuminance(grid, plane: plane, scale: scale, inverted: inverted) { return found }
        }
        return attempt.refinementPending.flatMap { decodeRefined($0, binary: binary, plane: plane, scale: scale, inverted: inverted) }
    }

    /// Whether no grid over the same symbol (centred inside `grid`'s area, and of a similar size) and of the
    /// same kind (a bent symbol's `mesh` pinned to the finders or cylinder, or not) was refined before in a pass with the same kind of
    /// threshold (local or global), and records `grid` as refined. A `convincing` grid (timing at least
    /// ``GridCheck/convincingScore``) is held back only by a convincing one: a grid that merely fits well
    /// can lie a fraction of a module off where the convincing one does not. The refinement follows module
    /// edges, whose places hardly depend on which local threshold made them: in the corpus no symbol it
    /// missed once decoded when refined again under another local threshold, and each such try cost
    /// milliseconds. Local thresholds beside a dark surround can thin a small symbol's dark modules and move
    /// its edges, where the global threshold keeps them whole (zxing-cpp/qrcode-4/30.png turned by 270°). A
    /// refinement in a search for damaged patterns counts only for later such searches: its grid hangs on a
    /// damaged pattern's less certain centre.
    private mutating func isFirstRefinement(of grid: SamplingGrid, scale: Double, mesh: Bool = false, convincing: Bool = true) -> Bool {
        let area = grid.corners.map { $0 * scale }
        let seen = refinedAreas.contains {
            $0.global == isGlobalPass && $0.lowered == isHighlightsLoweredPass && $0.mesh == mesh && (isDamagedSearch || !$0.damaged)
                && ($0.convincing || !convincing) && AttemptedGrids.coverOneSymbol($0.area, area)
        }
        if !seen { refinedAreas.append((area, isGlobalPass, isHighlightsLoweredPass, mesh, isDamagedSearch, convincing)) }
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
        guard attempted.insert(grid, scale: scale, sampling: .luminance(scale: scale, inverted: inverted,
                                                                                 highlightsLowered: isHighlightsLoweredPass), pass: passNumber,
                               throughDamagedPattern: isDamagedSearch)
        else { return nil }
        let samples = ModuleSampler.sample(grid, luminance: plane)
        guard let symbol = samples.decoded(by: { SymbolDecoder.decode($0, confidence: $1) }) else { return nil }
        return result(symbol, grid: grid, scale: scale, inverted: inverted)
    }

    /// The Micro QR symbol around the finder pattern whose outer square is `square`, if one decodes; `located`
    /// is set to the first candidate's grid if its format read with at most one bit wrong (grain passes with
    /// more) and `located` is not set yet.
    private func decodeMicro(_ square: FinderCorners, binary: BinaryImage, plane: LuminancePlane, scale: Double,
                             inverted: Bool, located: inout SamplingGrid?) -> ReadResult? {
        let candidates = MicroQRLocator.candidates(square: square, in: binary, luminance: plane)
        if located == nil { located = candidates.first { $0.format.distance <= 1 }?.grids.first }
        for candidate in candidates {
            func decoded(_ grid: SamplingGrid) -> ReadResult? {
                decodedAlone(grid, binary: binary, plane: plane, scale: scale, inverted: inverted, mirrored: candidate.mirrored) {
                    MicroQRDecoder.decode($0, format: candidate.format, confidence: $1)
                }
            }
            for grid in candidate.grids { if let found = decoded(grid) { return found } }
            // Last, the perspective fit redrawn through the timing patterns, for a symbol seen at a steep angle.
            for grid in candidate.toRedraw.map({ MicroQRLocator.redrawn($0, binary: binary) }) ?? [] {
                if let found = decoded(grid) { return found }
            }
        }
        return nil
    }

    /// The rMQR symbol around `pattern`, whose outer square is `square`, if one decodes; `located` is set to the
    /// first candidate's grid if its format read with at most one bit wrong and `located` is not set yet.
    private func decodeRMQR(_ pattern: FinderPattern, square: FinderCorners, binary: BinaryImage, plane: LuminancePlane,
                            scale: Double, inverted: Bool, located: inout SamplingGrid?) -> ReadResult? {
        let candidates = RMQRLocator.candidates(pattern, square: square, in: binary)
        if located == nil { located = candidates.first { $0.distance <= 1 }?.grid }
        for candidate in candidates {
            func decoded(_ grid: SamplingGrid) -> ReadResult? {
                decodedAlone(grid, binary: binary, plane: plane, scale: scale, inverted: inverted, mirrored: candidate.mirrored) {
                    RMQRDecoder.decode($0, version: candidate.version, level: candidate.level, confidence: $1)
                }
            }
            if let found = decoded(candidate.grid) { return found }
            // Then the fit redrawn through the timing patterns, for a symbol seen at an angle.
            guard !candidate.isRedrawn else { continue }
            for grid in RMQRLocator.redrawn(candidate.grid, version: candidate.version, moduleSize: pattern.moduleSize, binary: binary) {
                if let found = decoded(grid) { return found }
            }
        }
        return nil
    }

    /// The Micro QR or rMQR symbol that `decode` reads from `grid`'s binary samples or, in the thorough reader,
    /// from its luminance samples, placed in the image. Such grids follow the symbol's own orientation (`mirrored`
    /// given), so no transposing here.
    private func decodedAlone(_ grid: SamplingGrid, binary: BinaryImage, plane: LuminancePlane, scale: Double, inverted: Bool,
                              mirrored: Bool, by decode: (_ modules: BitMatrix, _ confidence: [Float]?) -> DecodedSymbol?) -> ReadResult? {
        let symbol = decode(ModuleSampler.sample(grid, binary: binary), nil)
            ?? (options.accuracy == .thorough ? ModuleSampler.sample(grid, luminance: plane).decoded(by: { decode($0, $1) }) : nil)
        return symbol.map { result($0, grid: grid, scale: scale, inverted: inverted, mirrored: mirrored) }
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
