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
        read(LuminancePlane(image)).results
    }

    /// Every code in a colour image. It is read from its luminance; if nothing is found there (with
    /// `.thorough` accuracy), also from its darkest channel, where light-coloured codes (yellow or cyan on
    /// white) keep their contrast and some glare is weaker. A time budget covers both.
    public func read(_ image: RGBAImage) -> [ReadResult] {
        readReport(image).results
    }

    /// As ``read(_:)`` of a colour image, also telling whether the time budget cut the search short.
    public func readReport(_ image: RGBAImage) -> ReadReport {
        readReport(GrayImage(image)) { GrayImage(image, conversion: .darkestChannel) }
    }

    /// Every code in `luminance`, or, if none is found there and accuracy is `.thorough`, in the
    /// darkest-channel version of the same picture that `darkestChannel` makes on demand (for example by
    /// decoding the file again with ``GrayConversion/darkestChannel``), unless the two differ too little to
    /// read differently. The darkest channel gets one pass, with the global threshold (the pass where a
    /// conversion with other contrasts most often differs), before the costliest of the luminance passes:
    /// the search for damaged finder patterns anywhere in the picture, left out if it finds a code.
    public func read(_ luminance: GrayImage, darkestChannel: () -> GrayImage?) -> [ReadResult] {
        readReport(luminance, darkestChannel: darkestChannel).results
    }

    /// As ``read(_:darkestChannel:)``, also telling whether the time budget cut the search short.
    public func readReport(_ luminance: GrayImage, darkestChannel: () -> GrayImage? = { nil }) -> ReadReport {
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

    /// Every code in 8-bit luminance pixels (row-major, `width` × `height`); none when `pixels` does not hold
    /// exactly `width` × `height` of them.
    public func read(luminance pixels: [UInt8], width: Int, height: Int) -> [ReadResult] {
        readReport(luminance: pixels, width: width, height: height).results
    }

    /// As ``read(luminance:width:height:)``, also telling whether the time budget cut the search short.
    public func readReport(luminance pixels: [UInt8], width: Int, height: Int) -> ReadReport {
        let (count, overflow) = width.multipliedReportingOverflow(by: height)
        guard width > 0, height > 0, !overflow, pixels.count == count else { return ReadReport(results: [], timedOut: false) }
        return read(LuminancePlane(width: width, height: height, pixels: pixels))
    }

    /// Every code in `full`; `darkestChannel`, if it gives one, is the same picture in another grey
    /// conversion, for one more pass when the others find nothing (see ``read(_:darkestChannel:)``).
    func read(_ full: LuminancePlane, darkestChannel: () -> LuminancePlane? = { nil }) -> ReadReport {
        let clock = ContinuousClock()
        let start = clock.now
        let (plane, origin) = crop(full)
        guard plane.width >= 11, plane.height >= 11 else { return ReadReport(results: [], timedOut: false) }
        var session = ReadSession(options: options, deadline: options.timeBudget.map { start + $0 })

        // Later passes only run while something may be missing: nothing found yet, or finder patterns
        // that formed plausible symbols without decoding.
        session.scan(plane, scale: 1, inverted: false, binarizer: .block(.usual))
        // Whether the negative's first pass has run, early or in its turn.
        var negativeFirstRead = false
        // How many of the passes that left finder patterns unaccounted for (the first ones) have had the search
        // for damaged patterns near them already.
        var passesSearchedForDamage = 0
        // The pyramid's levels made, finest first, with their factors: the first for the midrange and low-contrast
        // passes, the coarsest for a global threshold, and each, inverted, for the negative's passes.
        var levels: [(plane: LuminancePlane, factor: Int)] = []
        // The picture's grey levels, for the low-contrast passes and the bright-spot check: counted once, if asked.
        lazy var survey = LuminanceSurvey(plane)
        // The picture's negative, for the passes that look for light-on-dark codes: made once, if asked.
        lazy var negative = plane.inverted()
        // Whether the last level read for something missing left nothing over only for want of resolution.
        var hiddenFromPyramid = false
        // Both readers read the pyramid, as zxing-cpp's downscaling does: close-ups whose modules outgrow the
        // local thresholds' window, and screens whose moiré the averaging washes out, read only there. The
        // fast reader read 582 of the corpus's 713 codes without it and 637 with it, in as much time.
        if options.tryDownscale {
            hiddenFromPyramid = readPyramid(of: plane, inverted: false, levels: &levels, into: &session)
        }
        if options.accuracy == .thorough {
            // Two finder patterns left as a pair at full scale, and nothing else to go on (no set formed, nothing
            // found, the pyramid no wiser): a symbol whose third finder is damaged (merged with a dark edge,
            // blotted, washed out) is likelier than a light-on-dark code or one that other thresholds read, and
            // the search for that pattern near the pair costs less than those passes, which it then saves.
            if session.results.isEmpty && !session.formedSets, let pass = session.unexplainedPasses.first,
               pass.scale == 1 && pass.isLocalThresholds, case let pair = session.missedFinders(of: pass), pair.count == 2 {
                searchForDamagedFinders(completing: pair, of: pass, in: &session)
                passesSearchedForDamage = 1
            }
            // Light-on-dark codes show no finder patterns to the normal scans, or a stray few in their data
            // that form no symbol: when the local thresholds grouped no three patterns into a set, the negative's
            // first pass comes before the picture's other thresholds, a code found there saving them.
            if options.tryInverted && session.results.isEmpty && !session.formedSets {
                negativeFirstRead = true
                session.scan(negative, scale: 1, inverted: true, binarizer: .block(.usual))
            }
            readFurther(of: plane, inverted: false, levels: levels, hiddenFromPyramid: hiddenFromPyramid,
                        survey: { survey }, into: &session)
            // Bright spots (a reflection, a white marker stroke) can leave no sign of the codes beside them: the
            // local thresholds turn their paper dark and their finders into blobs. A picture with a few pixels far
            // brighter than the rest, outside the codes found, is read once more with those lowered, found codes or
            // not, on the pyramid's first level where there is one.
            let codePaper = session.foundCodesWithQuietZones
            if let ceiling = survey.highlightCeiling(explained: { point in codePaper.contains { $0.contains(point) } }) {
                let (level, factor) = levels.first ?? (plane, 1)
                session.scan(level.clipped(at: ceiling), scale: Double(factor), inverted: false, binarizer: .block(.usual),
                             speculative: true, highlightsLowered: true)
            }
        }
        // Light-on-dark codes: the negative is read as the picture was, when no dark-on-light code was found (beside
        // them only if asked, with `mixedPolarity`: its first pass costs as much as the picture's), by the same
        // passes under the same conditions. A light-on-dark close-up, its finders' centre stones wider than the
        // local thresholds' window at full scale, shows them only on the pyramid, and so can a larger code beside a
        // light-on-dark one found at full scale; a faded or noisy negative needs the other thresholds as a faded or
        // noisy picture does (the corpus's negatives faded to 0.3 with noise of 4 levels read 407 → 429 codes once
        // given them all, where the negative had a shorter sequence of its own).
        if options.tryInverted && (options.mixedPolarity || session.results.allSatisfy(\.inverted)) {
            if !negativeFirstRead {
                session.scan(negative, scale: 1, inverted: true, binarizer: .block(.usual))
            }
            let hidden = options.tryDownscale && readPyramid(of: plane, inverted: true, levels: &levels, into: &session)
            if options.accuracy == .thorough {
                readFurther(of: plane, inverted: true, levels: levels, hiddenFromPyramid: hidden,
                            survey: { survey }, into: &session)
            }
        }
        // Last, finder patterns that only read with allowances for damage (a module missing, a ring merging
        // with a dark surround). Texture and dense data show many such patterns, so they are looked for only
        // where a symbol seems missing: first near pairs of patterns that a pass left unaccounted for and no
        // code found since explains, where a third pattern would complete them; then anywhere in the picture:
        // with nothing found, in a scan of the whole picture, and beside codes found, where a symbol still seems
        // missing, among the patterns the searches near partners saw. That last search comes after the one
        // pass the picture gets in another grey conversion, if one is given.
        guard options.accuracy == .thorough else { return placed(session, by: origin) }
        for pass in session.unexplainedPasses.dropFirst(passesSearchedForDamage) where !session.isDone {
            searchForDamagedFinders(completing: session.missedFinders(of: pass), of: pass, in: &session)
            // The midrange rule at full scale and the local mean thresholds can lose different finders of one
            // symbol: the midrange rule shows two and loses the third, which the mean thresholds show only as a
            // damaged pattern. So the search near a full-scale pass's leftovers also looks in the mean thresholds (a
            // version 1 symbol beside a white stroke in bright_spots/image023; a made symbol at 30 % perspective),
            // for the patterns still missed: the first search may have found a code that explains some.
            if pass.scale == 1 && !pass.isLocalThresholds && !pass.inverted, let local = session.localThresholds, !session.isDone {
                searchForDamagedFinders(completing: session.missedFinders(of: pass), of: pass, in: &session, lookingIn: local)
            }
        }
        if session.results.isEmpty && !session.isDone, let darkest = darkestChannel() {
            session.scan(crop(darkest).plane, scale: 1, inverted: false, binarizer: .global)
        }
        if session.mayBeMissingCodes, let binary = session.localThresholds {
            session.search(ReadSession.DamagedSearch(partners: [], regions: nil, anywhere: true, inLocalThresholds: true),
                           plane: plane, binary: binary, scale: 1)
        }
        // Modules under about 2.5 px (a dense symbol seen in perspective, its far side under 2 px) can show
        // finder patterns that do not decode: their centres, sizes and edges, and so the grid, are off by a
        // fraction of a module. With nothing found and such patterns left over, a picture of up to a megapixel
        // is read once more enlarged twice, with both local rules. Of 1,600 symbols made by `qr make` at 3 px
        // modules in 30 % perspective, that read 160 more (1,214 to 1,374); in the corpus three pictures take it
        // (one reads), for about 2 % of its time. Hundreds left over are texture (``maximumEnlargedLeftovers``).
        // Beside codes found, the block mean rule enlarged only around each symbol of such modules that read as a
        // QR code's and did not decode (a version 7 symbol of 2 px modules beside two larger codes,
        // brightness/image026 slanted by 0.4, which zxing-cpp reads): enlarging the whole picture there put 8 more
        // images of the corpus over twice zxing-cpp's time, for no code.
        if !session.isDone, plane.width * plane.height <= Self.maximumEnlargedPixels {
            if !session.results.isEmpty {
                readAroundMissedSymbols(in: plane, inverted: false, withModulesIn: 0..<Self.enlargedModuleSize, enlarged: true, into: &session)
            } else {
                // The picture, then its negative where its passes left more than twice as many such patterns as the
                // picture's did: a light-on-dark symbol's finders, not grain, which both show alike within chance
                // (with "more" alone, pages of noise were read enlarged whenever chance gave their negative a few
                // patterns more, for 20–40 ms each).
                let small = 0..<Self.enlargedModuleSize
                let plainLeft = session.mostFindersLeft(withModulesIn: small)
                // Enlarged once for both: the negative shares its pixels.
                lazy var enlarged = plane.enlarged()
                for inverted in [false, true] where session.results.isEmpty && !session.isDone && (options.tryInverted || !inverted) {
                    let left = inverted ? session.mostFindersLeft(withModulesIn: small, inverted: true) : plainLeft
                    guard (1...Self.maximumEnlargedLeftovers).contains(left), !inverted || left > 2 * plainLeft else {
                        // No such patterns, but a Micro QR or rMQR symbol of such modules whose format and timing
                        // read around its one finder pattern: the square around it, enlarged.
                        if left == 0 {
                            readAroundMissedSymbols(in: inverted ? negative : plane, inverted: inverted, withModulesIn: small,
                                                    enlarged: true, into: &session)
                        }
                        continue
                    }
                    let read = inverted ? enlarged.inverted() : enlarged
                    session.scan(read, scale: 0.5, inverted: inverted, binarizer: .block(.usual))
                    if session.results.isEmpty && !session.isDone {
                        session.scan(read, scale: 0.5, inverted: inverted, binarizer: .midrange)
                    }
                }
            }
        }
        // A picture under 400 px across has no pyramid, so nothing averages away texture inside its modules (a
        // photo printed in them, grain, sensor noise) that breaks its finders and modules into specks under every
        // threshold. With nothing found, it and then its negative are read once at half size, which costs a
        // quarter of a full-scale pass. In the corpus that read zxing-cpp/qrcode-2/13 (dark modules filled with
        // an aerial photo); of the corpus's copies with noise of 25 grey levels 6 more codes (409 -> 415), of
        // their negatives 9 more (408 -> 417).
        if options.tryDownscale, Self.pyramidFactors(width: plane.width, height: plane.height).isEmpty,
           min(plane.width, plane.height) >= Self.smallestHalvedSide {
            lazy var half = plane.downscaled(by: 2)
            for inverted in [false, true] where session.results.isEmpty && !session.isDone && (options.tryInverted || !inverted) {
                session.scan(inverted ? half.inverted() : half, scale: 2, inverted: inverted, binarizer: .block(.usual))
            }
        }
        return placed(session, by: origin)
    }

    /// The thorough reader's passes after the full-scale local thresholds and the pyramid, over `picture`, or, if
    /// `inverted`, over its negative, while something may be missing: other thresholds at full scale and on
    /// `levels`, the pyramid's levels of `picture` (inverted here as the picture is, as ``readPyramid(of:inverted:levels:into:)``
    /// does). `hiddenFromPyramid`: the last level read for something missing left nothing over only for want of
    /// resolution. `survey` gives the picture's grey levels (the same either way round), counted only if a pass
    /// asks whether the picture is dim or washed out.
    private func readFurther(of picture: LuminancePlane, inverted: Bool, levels: [(plane: LuminancePlane, factor: Int)],
                             hiddenFromPyramid: Bool, survey: () -> LuminanceSurvey, into session: inout ReadSession) {
        // The negative shares the picture's pixels: inverting is a flag, not a copy.
        func polarized(_ plane: LuminancePlane) -> LuminancePlane { inverted ? plane.inverted() : plane }
        let plane = polarized(picture)
        let firstLevel = levels.first.map { (plane: polarized($0.plane), factor: $0.factor) }
        let coarsest = levels.last.map { (plane: polarized($0.plane), factor: $0.factor) }
        // The other local rule, thresholding at the middle of each block's contrast, reads some pictures the
        // first cannot (light-grey or thin-ringed finders beside flat areas) and fails on others. It gets
        // one pass, on the pyramid's first level where there is one. At full scale it read 28 more codes in
        // four turns of the corpus rather than 10, but made the whole corpus 40 % slower: it costs as much
        // as the first pass, and twice that in textured photos, whose grain it thresholds too. It is a second
        // opinion on what the earlier passes left over, often on a coarser plane where those patterns do not
        // show: what it leaves over adds to theirs. Beside codes found, a lone finder pattern left by the
        // picture's first pass (``ReadSession/loneFindersLeft``) also asks for it: in the corpus under glare
        // (`--glare 150`) that read 2 more codes, for no more images over twice zxing-cpp's time. So does a set
        // that the pyramid's second level, read speculatively, formed outside the codes found and did not decode
        // (``ReadSession/speculativeSetsLeft``): a code printed larger with a finder that level lost, whose
        // third pattern is its logo (noncompliant/image001 blurred). That look is speculative too: it reads
        // such a code or asks for nothing more. (Both are signs of the picture's passes.) In a dim picture (its span
        // under 96 grey levels: noise widens a faded picture's past the low-contrast passes' 64), codes found ask for
        // that speculative look too: the mean thresholds can read a code of 50 grey levels of contrast and lose a
        // fainter one beside it without a trace, its quiet zone's flat blocks pulling its finders' thresholds below
        // their rings. In the corpus faded to a quarter of its contrast with noise of 6 levels that read 13 more codes
        // (398 -> 411), for a few tenths of a millisecond on its dim photos. (Patterns hidden from the pyramid's last
        // level, `hiddenFromPyramid`, ask for the global pass below, not for this look: on noisy synthetic pages such
        // patterns are mostly grain, and the look cost them 8 % more time for no code.)
        let missing = session.mayBeMissingCodes
        let lone = !inverted && session.loneFindersLeft
        if missing || lone || !inverted && session.speculativeSetsLeft || !session.results.isEmpty && survey().isDim {
            // A speculative look where the pyramid was not read (under 800 px on the shorter side, its first pass leaving
            // nothing over) makes its first level rather than thresholding the picture: at full scale the midrange
            // rule turns a dim page's noisy paper into grain, 7 ms of false sets on an 800 x 600 synthetic page.
            let speculative = !missing && !lone
            let made = speculative && options.tryDownscale ? Self.firstPyramidLevel(of: plane) : nil
            let (level, factor) = firstLevel ?? made ?? (plane, 1)
            session.scan(level, scale: Double(factor), inverted: inverted, binarizer: .midrange,
                         speculative: speculative, addingToLeftovers: true)
        }
        // The global threshold at full scale also gets its look when the pyramid's last level read left
        // nothing over only because finer passes left finder patterns whose modules are under 2 px there: on
        // noisy pages lit unevenly across but evenly over each code it reads codes the local thresholds
        // thicken beyond reading (29 more of 3,410 in 996 synthetic photos; two more in the corpus turned by
        // 90° and 270°, bright_spots/image018), for a few per cent more time on such pages.
        if session.mayBeMissingCodes || hiddenFromPyramid {
            // A clean, evenly lit picture can threshold globally exactly as it did locally: the same binary
            // image shows the same patterns and grids again.
            session.scan(plane, scale: 1, inverted: inverted, binarizer: .global, unlessIdenticalTo: inverted ? nil : session.localThresholds)
        }
        // A close-up of large modules (a finder's centre stone wider than the local thresholds' window even
        // on the coarsest level) shows few finder patterns to the local thresholds; the global threshold
        // at full scale reads such a code in a clean picture, but sensor noise breaks up its long runs
        // there. With nothing found, the coarsest level, where averaging has quieted the noise, is
        // thresholded globally too.
        if let coarsest, session.results.isEmpty {
            session.scan(coarsest.plane, scale: Double(coarsest.factor), inverted: inverted, binarizer: .global)
        }
        // A code under glare or haze can have less contrast than the local thresholds take for a flat
        // block, and no single threshold fits the light across it: with nothing found, the pyramid's
        // first level (where averaging has quieted noise) is thresholded again with only blocks
        // flat to within noise set aside.
        if let firstLevel, session.results.isEmpty {
            session.scan(firstLevel.plane, scale: Double(firstLevel.factor), inverted: inverted, binarizer: .block(.lowContrast))
        }
        // In a dim or washed-out picture (``LuminanceSurvey/hasLowContrast``) a code can have under 24 levels of
        // contrast at full scale too, where its modules are largest: with nothing found, the full-scale
        // picture is thresholded setting aside only blocks flat to within noise. Run also beside codes found
        // where finder patterns were left over, it read three more codes in the corpus faded to a quarter of
        // its contrast, and cost three dim photos of the corpus 6–9 ms each (a 12 MP pass) for nothing.
        if session.results.isEmpty, survey().hasLowContrast {
            session.scan(plane, scale: 1, inverted: inverted, binarizer: .block(.lowContrast))
        }
        // A small symbol in a large photo can show finder patterns at full scale and yet fail there under
        // glare, while its modules are too small for the midrange pass on the pyramid's first level (under
        // 2.5 px there, where thresholds lose them). With nothing found so far and such patterns left over
        // (2 px or more at full scale: smaller ones are print grain), the midrange rule reads the picture at
        // full scale. In four turns of the corpus that read 9 more codes (in large photos with bright
        // spots) and cost 8 % more time on the 26 pictures with such patterns; run wherever such patterns
        // are left, even beside codes found, it cost 23 % there for the same codes. Dozens left over are texture
        // (``ReadSession/leftFinders(withModulesIn:inverted:)`` takes those the search for damaged finders would):
        // counted, the negative of glare/image001, which holds no code, took the 12 MP pass for its paper's grain.
        if let factor = firstLevel?.factor {
            let sizes = FinderPattern.grainModuleSize..<(2.5 * Double(factor))
            if session.results.isEmpty {
                if session.leftFinders(withModulesIn: sizes, inverted: inverted) {
                    session.scan(plane, scale: 1, inverted: inverted, binarizer: .midrange, addingToLeftovers: true)
                }
            } else {
                readAroundMissedSymbols(in: plane, inverted: inverted, withModulesIn: sizes, into: &session)
            }
        }
    }

    /// Reads the pyramid's levels (``pyramidFactors(width:height:)``) of `plane`, or of its negative if
    /// `inverted`, as long as something may be missing; `levels` holds the levels of `plane` made so far, finest
    /// first, and keeps those made here. Returns whether the last level read for something missing left nothing
    /// over only for want of resolution (asked of the thorough reader).
    private func readPyramid(of plane: LuminancePlane, inverted: Bool, levels: inout [(plane: LuminancePlane, factor: Int)],
                             into session: inout ReadSession) -> Bool {
        let factors = Self.pyramidFactors(width: plane.width, height: plane.height)
        let depth = factors.count
        var hiddenFromPyramid = false
        for (levelNumber, factor) in zip(1..., factors) {
            // A level is read while something may be missing. The second, where there is one, is read even when
            // nothing seems to be: a code whose modules are so large that its finders' centre stones are wider
            // than the local thresholds' window (five blocks) can show no finder pattern at full scale or at the
            // first level, and so leave no sign of itself (two codes side by side, one printed larger). zxing-cpp
            // reads its whole pyramid always. What such a speculative read leaves over asks for no further passes.
            // (The first level is then made, as the second's source, but not read.) The third, in photos 2,400 px
            // across and more, is read only for something missing: a close-up whose near finder's modules measure
            // over 100 px can show the other two finders at the second level and that one only at the third. Read
            // always, it read nothing more in the corpus and took the BoofCV part's decode time from 1.01 s to
            // 1.10 s.
            let missing = session.mayBeMissingCodes
            guard !session.isDone, missing || (depth >= 2 && levelNumber <= 2) else { break }
            // Further levels average the level before: the same boxes as shrinking the picture at once, read from
            // a plane 4 times smaller.
            if levels.count < levelNumber {
                let level = levelNumber == 1 ? plane.downscaled(by: factor) : levels[levelNumber - 2].plane.downscaled(by: 2)
                levels.append((level, factor))
            }
            // Damaged finder patterns are looked for near the first level's leftovers, not the second's: in the
            // corpus no search there read a code in any orientation, and one cost up to 0.6 ms.
            if missing || levelNumber == 2 {
                let level = levels[levelNumber - 1].plane
                session.scan(inverted ? level.inverted() : level, scale: Double(factor), inverted: inverted, binarizer: .block(.usual),
                             speculative: !missing, searchedForDamage: levelNumber == 1)
                // A level that leaves nothing over may only be too coarse to show what finer passes left; only the
                // thorough reader's later passes ask.
                if missing && options.accuracy == .thorough {
                    hiddenFromPyramid = session.leftFindersHidden(atScale: Double(factor), inverted: inverted)
                }
            }
        }
        return hiddenFromPyramid
    }

    /// Looks for damaged finder patterns where they would complete `left`, the patterns `pass` left unaccounted
    /// for that may be a missed symbol's finders (``ReadSession/missedFinders(of:settingAsideGrain:matching:)``),
    /// in the pass's binary image or in `local`, the full-scale local thresholds (``ReadSession/localThresholds``),
    /// of the same plane.
    private func searchForDamagedFinders(completing left: [FinderPattern], of pass: ReadSession.UnexplainedPass,
                                         in session: inout ReadSession, lookingIn local: BinaryImage? = nil) {
        guard !left.isEmpty else { return }
        let binary = local ?? pass.binary
        let regions = FinderPatternGrouper.thirdPatternRegions(completing: left, width: binary.width, height: binary.height)
        if regions?.isEmpty == true { return }
        session.search(ReadSession.DamagedSearch(partners: left, regions: regions, anywhere: false,
                                                 inLocalThresholds: local != nil || pass.isLocalThresholds),
                       plane: pass.plane, binary: binary, scale: pass.scale, inverted: pass.inverted)
    }

    /// How much each level of the pyramid of a picture `width` × `height` px is shrunk, finest first: none under
    /// 400 px across. A small pyramid: averaging also washes out screen moiré and print texture finer than the
    /// modules, and lets the local thresholds see very large modules whole. The first level is a third of the
    /// picture from 1,600 px across, else half; each further level halves the one before while it keeps 200 px
    /// across, up to three levels (a 4032 × 3024 photo: 3, 6 and 12).
    static func pyramidFactors(width: Int, height: Int) -> [Int] {
        let side = min(width, height)
        guard side >= 400 else { return [] }
        let first = side >= 1600 ? 3 : 2
        return [first] + (1..<3).map { first << $0 }.prefix { side / $0 >= 200 }
    }

    /// The pyramid's first level of `plane` with its factor (``pyramidFactors(width:height:)``), or nil for a plane too
    /// small to have one.
    static func firstPyramidLevel(of plane: LuminancePlane) -> (plane: LuminancePlane, factor: Int)? {
        pyramidFactors(width: plane.width, height: plane.height).first.map { (plane.downscaled(by: $0), $0) }
    }

    /// The shortest side of a picture without a pyramid that is read at half size when nothing was found: halved
    /// to 80 px, it holds a version 1 symbol with its quiet zone (29 modules) at modules under 3 px, about the
    /// smallest that read; in smaller pictures, halving leaves the modules too small.
    static let smallestHalvedSide = 160

    /// The largest picture, in pixels, that is read again enlarged twice when finder patterns of modules under
    /// ``enlargedModuleSize`` are left over and nothing was found: the enlarged plane holds four times as many.
    static let maximumEnlargedPixels = 1_000_000

    /// Finder patterns left over with modules under this many pixels ask for the picture to be read enlarged.
    static let enlargedModuleSize = 2.5

    /// More such patterns left over by one pass than this are texture, not a symbol, and ask for no enlarged
    /// read. Of the 1,600 symbols in perspective above, those that read enlarged left at most 55 in a pass (the
    /// data of a version 40 symbol mimics finder patterns); a megapixel tiled with finder-like squares of 1 or
    /// 2 px modules leaves 240 to 540, and reading it enlarged took a second of its two.
    static let maximumEnlargedLeftovers = 128

    /// Beside codes found, the midrange rule at full scale only around symbols that read as QR codes (timing
    /// patterns or version information) and did not decode, with modules (`sizes`) too small for the pyramid's
    /// first level: a version 40 symbol of 5 px modules, turned and blurred beside a code read (see
    /// ``ReadSession/missedSymbolRegions(withModulesIn:inverted:)``), in `plane`, the picture or (`inverted`) its
    /// negative. `enlarged`, the block mean rule on those squares enlarged twice instead, for modules under 2.5 px.
    private func readAroundMissedSymbols(in plane: LuminancePlane, inverted: Bool, withModulesIn sizes: Range<Double>,
                                         enlarged: Bool = false, into session: inout ReadSession) {
        for region in session.missedSymbolRegions(withModulesIn: sizes, inverted: inverted) {
            guard !session.isDone else { return }
            let (cut, origin) = plane.cropped(to: region)
            var around = ReadSession(options: options, deadline: session.deadline)
            if enlarged {
                around.scan(cut.enlarged(), scale: 0.5, inverted: inverted, binarizer: .block(.usual))
            } else {
                around.scan(cut, scale: 1, inverted: inverted, binarizer: .midrange)
            }
            session.adopt(around, from: origin)
        }
    }

    /// What `session` found, Structured Append parts merged and every position moved from the region of
    /// interest to the image.
    private func placed(_ session: ReadSession, by origin: Point) -> ReadReport {
        let results = StructuredAppendMerger.merge(session.results).map { $0.moved(by: origin) }
        return ReadReport(results: results, timedOut: session.ranOutOfTime)
    }

    /// The region of interest cut out, and its offset in the full image.
    private func crop(_ plane: LuminancePlane) -> (plane: LuminancePlane, origin: Point) {
        guard let region = options.regionOfInterest else { return (plane, .zero) }
        switch region {
        case let .normalized(r):
            return plane.cropped(to: Rect(x: r.minX * Double(plane.width), y: r.minY * Double(plane.height),
                                          width: r.width * Double(plane.width), height: r.height * Double(plane.height)))
        case let .pixels(r):
            return plane.cropped(to: r)
        }
    }
}
