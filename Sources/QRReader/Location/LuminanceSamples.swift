import QRCore

/// A symbol's module values read from luminance through a sampling grid (``ModuleSampler``), before they
/// are thresholded into modules.
struct LuminanceSamples {
    let width: Int, height: Int
    /// Row-major module values, -1 for modules wholly outside the image.
    let values: [Float]

    /// How far ``modules(sharpened:)`` moves a value away from the mean of its four neighbours, in shares of
    /// the difference. Blur a good part of a module wide (small modules, or large ones out of focus)
    /// spreads each module's light into its neighbours: a light module among dark ones reads about as
    /// dark as the grey between them, and a dark one among light ones as light. Moving each value away
    /// from its neighbours' mean by a multiple of the difference undoes that spreading to first order, as
    /// an unsharp mask would at the scale of modules. Twice the difference undoes spreading a sixth of
    /// each module into each neighbour. (The development corpus read most codes at 2: in four orientations
    /// 2,618, against 2,614 at 1 and 2,616 at 3; blurred by 1.5 px, 361 against 357, 359 and 360 at 0.5, 1 and 3.)
    static let sharpening: Float = 2

    /// What `decode` makes of the modules as they are thresholded, or failing that, sharpened.
    func decoded<Symbol>(by decode: (_ modules: BitMatrix, _ confidence: [Float]) -> Symbol?) -> Symbol? {
        for sharpened in [false, true] {
            let (modules, confidence) = modules(sharpened: sharpened)
            if let symbol = decode(modules, confidence) { return symbol }
        }
        return nil
    }

    /// The modules, each value compared with a threshold local to the symbol: the mean of the values in a
    /// window of neighbouring modules, so glare and shadow across the symbol are followed at module scale.
    /// Also returns each module's confidence (distance from its threshold, 0 for modules outside the
    /// image). With `sharpened`, the values are first sharpened by ``sharpening``, for a symbol too blurred
    /// for its isolated modules to read.
    func modules(sharpened: Bool = false) -> (modules: BitMatrix, confidence: [Float]) {
        let w = width, h = height
        let values = sharpened ? self.sharpened() : self.values
        // Integral images of the values and, when some modules lie outside the image (they have none), of
        // their count, for window means.
        let stride = w + 1
        let someOutside = values.contains { $0 < 0 }
        var integral = [Float](repeating: 0, count: stride * (h + 1))
        var integralCount = [Float](repeating: 0, count: someOutside ? stride * (h + 1) : 0)
        var modules = BitMatrix(width: w, height: h)
        var confidence = [Float](repeating: 0, count: w * h)
        let radius = max(3, min(w, h) / 8)
        // Through buffers: with checked subscripts this loop cost as much as reading the taps.
        values.withUnsafeBufferPointer { values in
            integral.withUnsafeMutableBufferPointer { integral in
                integralCount.withUnsafeMutableBufferPointer { integralCount in
                    for y in 0..<h {
                        var rowSum: Float = 0, rowCount: Float = 0
                        for x in 0..<w {
                            let v = values[y * w + x]
                            if v >= 0 { rowSum += v; rowCount += 1 }
                            integral[(y + 1) * stride + x + 1] = integral[y * stride + x + 1] + rowSum
                            if someOutside { integralCount[(y + 1) * stride + x + 1] = integralCount[y * stride + x + 1] + rowCount }
                        }
                    }
                    @inline(__always) func window(_ sums: UnsafeMutableBufferPointer<Float>, _ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) -> Float {
                        sums[y1 * stride + x1] - sums[y0 * stride + x1] - sums[y1 * stride + x0] + sums[y0 * stride + x0]
                    }
                    let inside = someOutside ? window(integralCount, 0, 0, w, h) : Float(w * h)
                    let globalMean = inside > 0 ? window(integral, 0, 0, w, h) / inside : 128
                    modules.storage.withUnsafeMutableBufferPointer { dark in
                        confidence.withUnsafeMutableBufferPointer { confidence in
                            for y in 0..<h {
                                let y0 = max(0, y - radius), y1 = min(h, y + radius + 1)
                                for x in 0..<w {
                                    let v = values[y * w + x]
                                    guard v >= 0 else { continue }
                                    let x0 = max(0, x - radius), x1 = min(w, x + radius + 1)
                                    let n = someOutside ? window(integralCount, x0, y0, x1, y1) : Float((x1 - x0) * (y1 - y0))
                                    let threshold = n > 0 ? 0.75 * (window(integral, x0, y0, x1, y1) / n) + 0.25 * globalMean : globalMean
                                    if v < threshold { dark[y * w + x] = 1 }
                                    confidence[y * w + x] = abs(v - threshold)
                                }
                            }
                        }
                    }
                }
            }
        }
        return (modules, confidence)
    }

    /// The values, each moved away from the mean of its neighbours inside the image by ``sharpening``
    /// times the difference (no lower than 0, which would mark it outside).
    private func sharpened() -> [Float] {
        let w = width, h = height
        var result = values
        for y in 0..<h {
            for x in 0..<w {
                let v = values[y * w + x]
                guard v >= 0 else { continue }
                var total: Float = 0, count: Float = 0
                @inline(__always) func add(_ index: Int) {
                    let u = values[index]
                    if u >= 0 { total += u; count += 1 }
                }
                if x > 0 { add(y * w + x - 1) }
                if x + 1 < w { add(y * w + x + 1) }
                if y > 0 { add((y - 1) * w + x) }
                if y + 1 < h { add((y + 1) * w + x) }
                if count > 0 { result[y * w + x] = max(0, v + Self.sharpening * (v - total / count)) }
            }
        }
        return result
    }
}
