/// Local-average thresholding in 8 × 8 blocks (the approach of ZXing's HybridBinarizer): each block's
/// threshold is the mean of the black points of the 5 × 5 blocks around it, so shadows and gradients
/// wider than a few blocks are followed. Flat blocks inherit their neighbours' black point, which keeps
/// the inside of large dark modules dark.
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

    static func binarize(_ plane: LuminancePlane, flatBlocks: FlatBlocks = .usual) -> BinaryImage {
        let width = plane.width, height = plane.height
        guard width >= blockSize * 5, height >= blockSize * 5 else { return GlobalBinarizer.binarize(plane) }
        let blocksX = (width + blockSize - 1) / blockSize
        let blocksY = (height + blockSize - 1) / blockSize
        var blackPoints = [Int32](repeating: 0, count: blocksX * blocksY)
        var bits: [UInt8] = []
        let inversion = SIMD16<UInt8>(repeating: plane.inversion)
        let maximumContrast = flatBlocks.maximumContrast
        // Blocks are read in pairs, sixteen lanes at a time (each half one block), while both lie whole inside
        // the row. A block left over at the row's end is the high half of the sixteen pixels ending where it
        // ends (the last block of a row may overlap the one before): the image is at least five blocks wide.
        // The pairs and the blocks left over take separate loops: one loop choosing per block measured 2–3 %
        // slower on large pictures.
        let maxX = width - blockSize, maxY = height - blockSize
        /// Where the sixteen pixels holding block bx (not of a whole pair) start in a row.
        @inline(__always) func leftoverStart(_ bx: Int) -> Int { min(bx * blockSize, maxX) - blockSize }

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
                        let (sum, low, high) = statistics(at: leftoverStart(bx))
                        store(bx, minimum: low.highHalf.min(), maximum: high.highHalf.max(), sum: sum.highHalf.wrappedSum())
                    }
                }
            }
            // The window sums are separable: first each run of five black points along a row of blocks
            // (`across[by][i]` starts at block i), then five of those down a column.
            let runs = blocksX - 4
            var across = [Int32](repeating: 0, count: blocksY * runs)
            blackPoints.withUnsafeBufferPointer { points in
                across.withUnsafeMutableBufferPointer { across in
                    for by in 0..<blocksY {
                        for i in 0..<runs {
                            let row = by * blocksX + i
                            across[by * runs + i] = points[row] &+ points[row + 1] &+ points[row + 2] &+ points[row + 3] &+ points[row + 4]
                        }
                    }
                }
            }
            // Every pixel is written below (the last block of a row or column overlaps the one before).
            bits = [UInt8](unsafeUninitializedCapacity: width * height) { buffer, initialized in
                let out = UnsafeMutableRawBufferPointer(buffer)
                across.withUnsafeBufferPointer { across in
                    let one = SIMD16<UInt8>(repeating: 1), zero = SIMD16<UInt8>(repeating: 0)
                    for by in 0..<blocksY {
                        let top = min(by * blockSize, maxY)
                        let cy = min(max(by, 2), blocksY - 3)
                        /// The threshold of block (bx, by): the mean black point of the 5 × 5 blocks around it,
                        /// moved inside the grid at its edges.
                        @inline(__always) func threshold(_ bx: Int) -> UInt8 {
                            let first = (cy - 2) * runs + min(max(bx, 2), blocksX - 3) - 2
                            let sum = Int(across[first]) + Int(across[first + runs]) + Int(across[first + 2 * runs])
                                + Int(across[first + 3 * runs]) + Int(across[first + 4 * runs])
                            return UInt8(clamping: sum / 25)
                        }
                        /// Pixels at or below the threshold are dark: sixteen of them at `offset`.
                        @inline(__always) func dark(at offset: Int, _ thresholds: SIMD16<UInt8>) -> SIMD16<UInt8> {
                            let row = pixels.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self) ^ inversion
                            return zero.replacing(with: one, where: row .<= thresholds)
                        }
                        // Blocks in pairs as above; a block left over writes only its own (high) half.
                        var bx = 0
                        while (bx + 2) * blockSize <= width {
                            let thresholds = SIMD16<UInt8>(lowHalf: SIMD8(repeating: threshold(bx)),
                                                           highHalf: SIMD8(repeating: threshold(bx + 1)))
                            for offset in stride(from: top * width + bx * blockSize, to: (top + blockSize) * width, by: width) {
                                out.storeBytes(of: dark(at: offset, thresholds), toByteOffset: offset, as: SIMD16<UInt8>.self)
                            }
                            bx += 2
                        }
                        for bx in bx..<blocksX {
                            let thresholds = SIMD16<UInt8>(repeating: threshold(bx))
                            for offset in stride(from: top * width + leftoverStart(bx), to: (top + blockSize) * width, by: width) {
                                out.storeBytes(of: dark(at: offset, thresholds).highHalf, toByteOffset: offset + blockSize,
                                               as: SIMD8<UInt8>.self)
                            }
                        }
                    }
                }
                initialized = width * height
            }
        }
        return BinaryImage(width: width, height: height, bits: bits)
    }
}

/// One threshold for the whole image, from the valley between the two main peaks of the luminance
/// histogram (ZXing's GlobalHistogramBinarizer); used for images too small for block thresholds and as an
/// alternative when local thresholds fail on evenly lit images.
enum GlobalBinarizer {
    // Kept out of line: inlined into a large caller, the per-pixel closure was once left as a call per
    // pixel (2× slower passes on large images).
    @inline(never)
    static func binarize(_ plane: LuminancePlane) -> BinaryImage {
        let threshold = UInt8(clamping: self.threshold(plane))
        let inversion = plane.inversion
        return BinaryImage(width: plane.width, height: plane.height, bits: plane.pixels.mapBytes { $0 ^ inversion < threshold ? 1 : 0 })
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
