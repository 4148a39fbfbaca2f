/// Local thresholding in 8 × 8 blocks, each block thresholded by the 5 × 5 blocks around it, so shadows
/// and gradients wider than a few blocks are followed. Two rules give the blocks their black points:
/// ``binarize(_:flatBlocks:)``, ZXing's HybridBinarizer (the mean of each block, flat blocks inheriting
/// their neighbours' black point, which keeps the inside of large dark modules dark), and
/// ``binarizeAtMidrange(_:)``, zxing-cpp's newer rule.
enum BlockBinarizer {
    static let blockSize = 8
    /// Blocks whose contrast is at most this are considered flat (``FlatBlocks/usual``).
    static let minimumDynamicRange = 24

    /// What counts as a flat block, too even to be thresholded by its own pixels, and the black point it
    /// gets when its neighbours' does not lie above its darkest pixel: one that makes it light.
    enum FlatBlocks {
        /// ZXing's rule: up to ``BlockBinarizer/minimumDynamicRange`` grey levels of contrast, made light
        /// with a black point of half its darkest pixel.
        case usual
        /// For codes under glare or haze, which can be left 10–24 grey levels of contrast (less still once
        /// averaged into a pyramid level): only blocks even to within noise (8 levels) are flat, and their
        /// black point lies just that far below their darkest pixel. Half of it would pull the thresholds
        /// of the blocks around far below such a code's dark modules.
        case lowContrast

        var maximumContrast: Int { self == .usual ? BlockBinarizer.minimumDynamicRange : 8 }

        func lightBlackPoint(darkest: Int) -> Int { self == .usual ? darkest / 2 : darkest - maximumContrast }
    }

    /// Thresholds each block at the mean black point of the 5 × 5 blocks around it, a block's black point
    /// being its mean, or for a flat block one of `flatBlocks`.
    static func binarize(_ plane: LuminancePlane, flatBlocks: FlatBlocks = .usual, reusing recycler: BitRecycler? = nil) -> BinaryImage {
        guard let (blocksX, blocksY) = blockGrid(plane) else { return GlobalBinarizer.binarize(plane, reusing: recycler) }
        let width = plane.width, maxY = plane.height - blockSize
        var blackPoints = [Int32](repeating: 0, count: blocksX * blocksY)
        let inversion = SIMD16<UInt8>(repeating: plane.inversion)
        let maximumContrast = flatBlocks.maximumContrast
        // Blocks are read in pairs, sixteen lanes at a time (each half one block), while both lie whole inside
        // the row. A block left over at the row's end is the high half of the sixteen pixels ending where it
        // ends (the last block of a row may overlap the one before): the image is at least five blocks wide.
        // The pairs and the blocks left over take separate loops: one loop choosing per block measured 2–3 %
        // slower on large pictures.
        plane.pixels.withUnsafeBytes { pixels in
            blackPoints.withUnsafeMutableBufferPointer { points in
                for by in 0..<blocksY {
                    let top = min(by * blockSize, maxY)
                    /// Stores block (bx, by)'s black point from its darkest and lightest pixel and its pixel sum.
                    @inline(__always) func store(_ bx: Int, minimum: UInt8, maximum: UInt8, sum: UInt16) {
                        let minimum = Int(minimum)
                        var average = Int(sum) >> 6
                        if Int(maximum) - minimum <= maximumContrast {
                            // A flat block: assume light unless the neighbours say the area is dark.
                            average = flatBlocks.lightBlackPoint(darkest: minimum)
                            if by > 0 && bx > 0 {
                                let neighbours = (Int(points[(by - 1) * blocksX + bx]) + 2 * Int(points[by * blocksX + bx - 1])
                                    + Int(points[(by - 1) * blocksX + bx - 1])) / 4
                                if minimum < neighbours { average = neighbours }
                            }
                        }
                        points[by * blocksX + bx] = Int32(average)
                    }
                    /// The pixel sums and darkest and lightest pixels of the two blocks' rows starting at `x`.
                    /// (pointwiseMin and pointwiseMax on sixteen lanes were left as calls: lanes are replaced.)
                    @inline(__always) func statistics(at x: Int) -> (sum: SIMD16<UInt16>, low: SIMD16<UInt8>, high: SIMD16<UInt8>) {
                        var sum = SIMD16<UInt16>(repeating: 0)
                        var low = SIMD16<UInt8>(repeating: 255), high = SIMD16<UInt8>(repeating: 0)
                        var offset = top * width + x
                        for _ in 0..<blockSize {
                            let row = pixels.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self) ^ inversion
                            sum &+= SIMD16<UInt16>(truncatingIfNeeded: row)
                            low.replace(with: row, where: row .< low)
                            high.replace(with: row, where: row .> high)
                            offset += width
                        }
                        return (sum, low, high)
                    }
                    var bx = 0
                    while (bx + 2) * blockSize <= width {
                        let (sum, low, high) = statistics(at: bx * blockSize)
                        store(bx, minimum: low.lowHalf.min(), maximum: high.lowHalf.max(), sum: sum.lowHalf.wrappedSum())
                        store(bx + 1, minimum: low.highHalf.min(), maximum: high.highHalf.max(), sum: sum.highHalf.wrappedSum())
                        bx += 2
                    }
                    for bx in bx..<blocksX {
                        let (sum, low, high) = statistics(at: leftoverStart(bx, width: width))
                        store(bx, minimum: low.highHalf.min(), maximum: high.highHalf.max(), sum: sum.highHalf.wrappedSum())
                    }
                }
            }
        }
        return threshold(plane, blocksX: blocksX, blocksY: blocksY, at: meanThresholds(blackPoints, blocksX: blocksX, blocksY: blocksY),
                         reusing: recycler)
    }

    /// Thresholds each block at the middle of its darkest and lightest pixel, averaged over the 5 × 5 blocks
    /// around it where they have one: flat blocks (``minimumDynamicRange``) have none and take the average of
    /// the others around them, or further off, the next block's in reading order. A ring of light-grey
    /// modules, whose blocks' means lie well above their middle, keeps its width: under the mean rule, the
    /// quiet zone's flat blocks, made light with half their darkest pixel, pull the ring's threshold below
    /// it, and the ring breaks. zxing-cpp thresholds so (its LocalAverage binarizer since 2.x); the two
    /// rules fail on different pictures.
    static func binarizeAtMidrange(_ plane: LuminancePlane, reusing recycler: BitRecycler? = nil) -> BinaryImage {
        guard let (blocksX, blocksY) = blockGrid(plane) else { return GlobalBinarizer.binarize(plane, reusing: recycler) }
        let width = plane.width, maxY = plane.height - blockSize
        var middles = [Int32](repeating: 0, count: blocksX * blocksY)
        // Each row of blocks: first the darkest and lightest pixel of each column over its rows, sixteen
        // columns at a time (the last sixteen may overlap the ones before), then of each block's columns.
        var darkest = [UInt8](repeating: 0, count: width), lightest = [UInt8](repeating: 0, count: width)
        let inversion = SIMD16<UInt8>(repeating: plane.inversion)
        plane.pixels.withUnsafeBytes { pixels in
            darkest.withUnsafeMutableBytes { darkest in
                lightest.withUnsafeMutableBytes { lightest in
                    for by in 0..<blocksY {
                        let top = min(by * blockSize, maxY)
                        for chunk in stride(from: 0, to: width, by: 16) {
                            let x = min(chunk, width - 16)
                            var low = pixels.loadUnaligned(fromByteOffset: top * width + x, as: SIMD16<UInt8>.self) ^ inversion
                            var high = low
                            for y in (top + 1)..<(top + blockSize) {
                                let row = pixels.loadUnaligned(fromByteOffset: y * width + x, as: SIMD16<UInt8>.self) ^ inversion
                                low.replace(with: row, where: row .< low)
                                high.replace(with: row, where: row .> high)
                            }
                            darkest.storeBytes(of: low, toByteOffset: x, as: SIMD16<UInt8>.self)
                            lightest.storeBytes(of: high, toByteOffset: x, as: SIMD16<UInt8>.self)
                        }
                        for bx in 0..<blocksX {
                            let left = min(bx * blockSize, width - blockSize)
                            let low = darkest.loadUnaligned(fromByteOffset: left, as: SIMD8<UInt8>.self).min()
                            let high = lightest.loadUnaligned(fromByteOffset: left, as: SIMD8<UInt8>.self).max()
                            // Zero: none (a block whose middle is zero is flat).
                            middles[by * blocksX + bx] = high - low > minimumDynamicRange ? (Int32(high) + Int32(low)) / 2 : 0
                        }
                    }
                }
            }
        }
        // Not a block with contrast anywhere: as zxing-cpp, one threshold for all.
        guard let thresholds = midrangeThresholds(middles, blocksX: blocksX, blocksY: blocksY) else {
            return GlobalBinarizer.binarize(plane, reusing: recycler)
        }
        return threshold(plane, blocksX: blocksX, blocksY: blocksY, at: thresholds, reusing: recycler)
    }

    /// The number of blocks across and down, or nil when the plane is too small for 5 × 5 of them.
    private static func blockGrid(_ plane: LuminancePlane) -> (Int, Int)? {
        guard plane.width >= blockSize * 5, plane.height >= blockSize * 5 else { return nil }
        return ((plane.width + blockSize - 1) / blockSize, (plane.height + blockSize - 1) / blockSize)
    }

    /// Where the sixteen pixels holding block bx (not of a whole pair) start in a row of `width` pixels.
    @inline(__always)
    private static func leftoverStart(_ bx: Int, width: Int) -> Int { min(bx * blockSize, width - blockSize) - blockSize }

    /// The binary image: each pixel dark when at or below its block's threshold. The last block of a row or
    /// column overlaps the one before (the image need not be a whole number of blocks), and the pixels they
    /// share take the last block's threshold: pixel x lies in block x / 8, but for the last eight of a row,
    /// which lie in its last block, and the rows alike.
    private static func threshold(_ plane: LuminancePlane, blocksX: Int, blocksY: Int, at thresholds: [UInt8],
                                  reusing recycler: BitRecycler?) -> BinaryImage {
        let width = plane.width, height = plane.height
        let inversion = plane.inversion, inversionLanes = SIMD16<UInt8>(repeating: inversion)
        // Each pixel column's threshold in the current row of blocks.
        var columns = [UInt8](repeating: 0, count: width)
        return BinaryImage(width: width, height: height, reusing: recycler) { words in
            plane.pixels.withUnsafeBytes { pixels in
                columns.withUnsafeMutableBytes { columns in
                    let one = SIMD16<UInt8>(repeating: 1), zero = SIMD16<UInt8>(repeating: 0)
                    var rowOfBlocks = -1
                    for y in 0..<height {
                        let by = y >= height - blockSize ? blocksY - 1 : y / blockSize
                        if by != rowOfBlocks {
                            rowOfBlocks = by
                            let row = by * blocksX
                            for bx in 0..<(blocksX - 1) {
                                columns.storeBytes(of: SIMD8(repeating: thresholds[row + bx]), toByteOffset: bx * blockSize,
                                                   as: SIMD8<UInt8>.self)
                            }
                            columns.storeBytes(of: SIMD8(repeating: thresholds[row + blocksX - 1]), toByteOffset: width - blockSize,
                                               as: SIMD8<UInt8>.self)
                        }
                        let start = y * width
                        // Pixels at or below the threshold are dark.
                        BinaryImage.packRow(into: words, row: y, width: width, sixteen: { x in
                            let values = pixels.loadUnaligned(fromByteOffset: start &+ x, as: SIMD16<UInt8>.self) ^ inversionLanes
                            return zero.replacing(with: one, where: values .<= columns.loadUnaligned(fromByteOffset: x, as: SIMD16<UInt8>.self))
                        }, one: { x in pixels[start &+ x] ^ inversion <= columns[x] })
                    }
                }
            }
        }
    }

    /// Sums of each run of five values along each row of blocks (`[by * (blocksX - 4) + i]` starts at block i):
    /// the 5 × 5 window sums are separable.
    private static func runsOfFive(_ values: [Int32], blocksX: Int, blocksY: Int) -> [Int32] {
        let runs = blocksX - 4
        var across = [Int32](repeating: 0, count: blocksY * runs)
        values.withUnsafeBufferPointer { values in
            across.withUnsafeMutableBufferPointer { across in
                // Through a row's own buffers and with wrapping index arithmetic, so that the loop is vectorised.
                for by in 0..<blocksY {
                    let row = UnsafeBufferPointer(rebasing: values[(by * blocksX)..<((by + 1) * blocksX)])
                    let sums = UnsafeMutableBufferPointer(rebasing: across[(by * runs)..<((by + 1) * runs)])
                    for i in 0..<runs {
                        sums[i] = row[i] &+ row[i &+ 1] &+ row[i &+ 2] &+ row[i &+ 3] &+ row[i &+ 4]
                    }
                }
            }
        }
        return across
    }

    /// Each block's sum of `values` over the 5 × 5 blocks around it, the window moved inside the grid at its
    /// edges. A row of blocks at a time: first the sums of its windows (five row sums, ``runsOfFive(_:blocksX:blocksY:)``,
    /// added lane by lane), then each block's. Block by block, with the window's place worked out for each,
    /// this took 4 % of a large photo's read.
    private static func windowSums(_ values: [Int32], blocksX: Int, blocksY: Int) -> [Int32] {
        let across = runsOfFive(values, blocksX: blocksX, blocksY: blocksY)
        let runs = blocksX - 4
        var sums = [Int32](repeating: 0, count: blocksX * blocksY)
        var windows = [Int32](repeating: 0, count: runs)
        across.withUnsafeBufferPointer { across in
            windows.withUnsafeMutableBufferPointer { windows in
                sums.withUnsafeMutableBufferPointer { sums in
                    for by in 0..<blocksY {
                        let first = (min(max(by, 2), blocksY - 3) - 2) * runs
                        @inline(__always) func rowSums(_ k: Int) -> UnsafeBufferPointer<Int32> {
                            UnsafeBufferPointer(rebasing: across[(first + k * runs)..<(first + (k + 1) * runs)])
                        }
                        let (a, b, c, d, e) = (rowSums(0), rowSums(1), rowSums(2), rowSums(3), rowSums(4))
                        for i in 0..<runs { windows[i] = a[i] &+ b[i] &+ c[i] &+ d[i] &+ e[i] }
                        let row = by * blocksX
                        sums[row] = windows[0]
                        sums[row + 1] = windows[0]
                        for bx in 2..<(blocksX - 2) { sums[row + bx] = windows[bx - 2] }
                        sums[row + blocksX - 2] = windows[runs - 1]
                        sums[row + blocksX - 1] = windows[runs - 1]
                    }
                }
            }
        }
        return sums
    }

    /// Each block's threshold: the mean black point of the 5 × 5 blocks around it.
    private static func meanThresholds(_ points: [Int32], blocksX: Int, blocksY: Int) -> [UInt8] {
        windowSums(points, blocksX: blocksX, blocksY: blocksY).map { UInt8(clamping: $0 / 25) }
    }

    /// Each block's threshold from the midranges (zero: none): the mean of those of the 5 × 5 blocks around
    /// it, its own counted thrice; a block with none around takes the next block's that has one, in reading
    /// order (the last blocks the last one). Nil when no block has one.
    private static func midrangeThresholds(_ points: [Int32], blocksX: Int, blocksY: Int) -> [UInt8]? {
        let sums = windowSums(points, blocksX: blocksX, blocksY: blocksY)
        let counts = windowSums(points.map { $0 > 0 ? 1 : 0 }, blocksX: blocksX, blocksY: blocksY)
        var thresholds = points.indices.map { index in
            let own = points[index]
            let sum = 2 * own + sums[index], count = (own > 0 ? 2 : 0) + counts[index]
            return count > 0 ? UInt8(clamping: sum / count) : 0
        }
        // Blocks far inside large flat areas.
        guard let lastKnown = thresholds.lastIndex(where: { $0 > 0 }) else { return nil }
        var next = thresholds[lastKnown]
        for i in thresholds.indices.reversed() {
            if thresholds[i] > 0 { next = thresholds[i] } else { thresholds[i] = next }
        }
        return thresholds
    }
}

/// One threshold for the whole image, from the valley between the two main peaks of the luminance
/// histogram (ZXing's GlobalHistogramBinarizer); used for images too small for block thresholds and as an
/// alternative when local thresholds fail on evenly lit images.
enum GlobalBinarizer {
    // Kept out of line: inlined into a large caller, its per-pixel work was once left as a call per pixel
    // (2× slower passes on large images).
    @inline(never)
    static func binarize(_ plane: LuminancePlane, reusing recycler: BitRecycler? = nil) -> BinaryImage {
        let threshold = UInt8(clamping: self.threshold(plane))
        let inversion = plane.inversion, inversionLanes = SIMD16<UInt8>(repeating: inversion)
        let limit = SIMD16<UInt8>(repeating: threshold), one = SIMD16<UInt8>(repeating: 1), zero = SIMD16<UInt8>(repeating: 0)
        let width = plane.width
        return BinaryImage(width: width, height: plane.height, reusing: recycler) { words in
            plane.pixels.withUnsafeBytes { pixels in
                for y in 0..<plane.height {
                    let start = y * width
                    BinaryImage.packRow(into: words, row: y, width: width, sixteen: { x in
                        let values = pixels.loadUnaligned(fromByteOffset: start &+ x, as: SIMD16<UInt8>.self) ^ inversionLanes
                        return zero.replacing(with: one, where: values .< limit)
                    }, one: { x in pixels[start &+ x] ^ inversion < threshold })
                }
            }
        }
    }

    static func threshold(_ plane: LuminancePlane) -> Int {
        // A histogram of a sample of the pixels (every second pixel of every fourth row, and of fewer rows
        // in a large photo: about 250,000 samples fill 32 buckets as well as millions) is as good.
        // Four interleaved histograms: flat areas put run after run of pixels in one bucket, and
        // incrementing a single counter would wait on its previous increment every time.
        var interleaved = [Int](repeating: 0, count: 4 * 32)
        let inversion = plane.inversion
        let rowStep = plane.height >= 64 ? max(4, plane.width * plane.height / (2 * 250_000)) : 1
        interleaved.withUnsafeMutableBufferPointer { counts in
            plane.pixels.withUnsafeBufferPointer { values in
                var y = 0
                while y < plane.height {
                    var i = y * plane.width
                    let end = i + plane.width
                    var lane = 0
                    while i < end {
                        counts[lane + Int((values[i] ^ inversion) &>> 3) &* 4] &+= 1
                        lane = (lane + 1) & 3
                        i += 2
                    }
                    y += rowStep
                }
            }
        }
        let buckets: [Int] = (0..<32).map { bucket in interleaved[(4 * bucket)..<(4 * bucket + 4)].reduce(0, +) }
        // The tallest peak, then the peak farthest from it weighted by height.
        guard let first = buckets.indices.max(by: { buckets[$0] < buckets[$1] }) else { return 128 }
        var second = first, secondScore = 0
        for i in buckets.indices {
            let score = (i - first) * (i - first) * buckets[i]
            if score > secondScore { second = i; secondScore = score }
        }
        let (low, high) = first < second ? (first, second) : (second, first)
        guard high - low > 1 else { return 128 }
        // The deepest valley between them, biased towards the light peak.
        var best = high - 1, bestScore = -1
        for i in stride(from: high - 1, to: low, by: -1) {
            let fromLow = i - low
            let score = fromLow * fromLow * (high - i) * (buckets[first] - buckets[i])
            if score > bestScore { best = i; bestScore = score }
        }
        return best << 3
    }
}
