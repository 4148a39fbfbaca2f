import QRImage
import QRCore

/// 8-bit luminance pixels, row-major, that the reader works on (0 = black, 255 = white).
struct LuminancePlane: Sendable {
    let width: Int
    let height: Int
    /// The stored pixels; each luminance is a stored pixel XOR ``inversion``.
    let pixels: [UInt8]
    /// 0xFF when the plane is the negative of its stored pixels (see ``inverted()``), else 0.
    let inversion: UInt8

    init(width: Int, height: Int, pixels: [UInt8]) {
        self.init(width: width, height: height, pixels: pixels, inversion: 0)
    }

    private init(width: Int, height: Int, pixels: [UInt8], inversion: UInt8) {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height, "pixel count does not match size")
        self.width = width
        self.height = height
        self.pixels = pixels
        self.inversion = inversion
    }

    /// The pixels of a grey image.
    init(_ image: GrayImage) {
        self.init(width: image.width, height: image.height, pixels: image.pixels)
    }

    /// The pixels inside `rect` (clamped to the plane), and the cut's offset in the plane.
    func cropped(to rect: Rect) -> (plane: LuminancePlane, origin: Point) {
        let x0 = rect.minX.pixelIndex(clampedTo: 0...width) ?? 0
        let y0 = rect.minY.pixelIndex(clampedTo: 0...height) ?? 0
        let x1 = max(x0, rect.maxX.rounded(.up).pixelIndex(clampedTo: 0...width) ?? width)
        let y1 = max(y0, rect.maxY.rounded(.up).pixelIndex(clampedTo: 0...height) ?? height)
        var cut = [UInt8]()
        cut.reserveCapacity((x1 - x0) * (y1 - y0))
        for y in y0..<y1 { cut += pixels[(y * width + x0)..<(y * width + x1)] }
        return (LuminancePlane(width: x1 - x0, height: y1 - y0, pixels: cut, inversion: inversion), Point(Double(x0), Double(y0)))
    }

    /// Bilinear luminance at a point in pixel coordinates (pixel centres at +0.5); nil outside the image.
    @inline(__always)
    func sample(_ x: Double, _ y: Double) -> Double? {
        pixels.withUnsafeBufferPointer { sample(x, y, in: $0) }
    }

    /// ``sample(_:_:)`` reading through `p`, this plane's ``pixels``, so that loops taking many samples enter the
    /// buffer once.
    @inline(__always)
    func sample(_ x: Double, _ y: Double, in p: UnsafeBufferPointer<UInt8>) -> Double? {
        let fx = x - 0.5, fy = y - 0.5
        guard fx > -1, fy > -1, fx < Double(width), fy < Double(height) else { return nil }
        // Between pixel centres (nearly every tap): nothing to clamp.
        if fx >= 0, fy >= 0, fx < Double(width - 1), fy < Double(height - 1) { return interiorSample(x, y, in: p) }
        let x0 = max(0, min(width - 1, Int(fx.rounded(.down))))
        let y0 = max(0, min(height - 1, Int(fy.rounded(.down))))
        let (x1, y1) = (min(width - 1, x0 + 1), min(height - 1, y0 + 1))
        let (ax, ay) = (max(0, min(1, fx - Double(x0))), max(0, min(1, fy - Double(y0))))
        return blend(p, y0 * width + x0, y0 * width + x1, y1 * width + x0, y1 * width + x1, ax, ay)
    }

    /// ``sample(_:_:in:)`` at a point between pixel centres, x in [0.5, width − 0.5) and y in
    /// [0.5, height − 0.5), which the caller has checked (unchecked, the pixels read could lie outside).
    @inline(__always)
    func interiorSample(_ x: Double, _ y: Double, in p: UnsafeBufferPointer<UInt8>) -> Double {
        let fx = x - 0.5, fy = y - 0.5
        let x0 = Int(fx), y0 = Int(fy)
        let ax = fx - Double(x0), ay = fy - Double(y0)
        let i = y0 &* width &+ x0
        return blend(p, i, i &+ 1, i &+ width, i &+ width &+ 1, ax, ay)
    }

    /// The four pixels at `topLeft` … `bottomRight` (indices into `p`, ``inversion`` applied) weighted by the
    /// fractions `ax` across and `ay` down between them.
    @inline(__always)
    private func blend(_ p: UnsafeBufferPointer<UInt8>, _ topLeft: Int, _ topRight: Int, _ bottomLeft: Int, _ bottomRight: Int,
                       _ ax: Double, _ ay: Double) -> Double {
        let top = Double(p[topLeft] ^ inversion) * (1 - ax) + Double(p[topRight] ^ inversion) * ax
        let bottom = Double(p[bottomLeft] ^ inversion) * (1 - ax) + Double(p[bottomRight] ^ inversion) * ax
        return top * (1 - ay) + bottom * ay
    }

    /// The plane shrunk by an integer factor, each output pixel the mean (rounded down) of a factor × factor box
    /// of luminances (``inversion`` applied).
    func downscaled(by factor: Int) -> LuminancePlane {
        guard factor > 1 else { return self }
        let w = width / factor, h = height / factor
        guard w > 0, h > 0 else { return LuminancePlane(width: 0, height: 0, pixels: []) }
        // Rows are first summed column-wise in 16 bits (vectorised), then each run of `factor` columns is
        // added and divided by the box area without a divide (a divide per pixel was the cost here): halving
        // and thirds in their own ways below, other factors as a multiply and shift, floor(s · ⌈2²⁴/area⌉ / 2²⁴)
        // equalling floor(s / area) for every s ≤ 255 · area when area ≤ 256.
        precondition(factor <= 16, "downscale factor above 16")
        let used = w * factor
        let area = UInt32(factor * factor)
        let reciprocal = ((1 << 24) + area - 1) / area
        var columns = [UInt16](repeating: 0, count: used)
        let inversion = self.inversion, inversionLanes = SIMD16<UInt8>(repeating: inversion)
        let out = [UInt8](unsafeUninitializedCapacity: w * h) { dst, initialized in
            pixels.withUnsafeBufferPointer { src in
                columns.withUnsafeMutableBufferPointer { col in
                    let source = UnsafeRawBufferPointer(src)
                    let sums = UnsafeMutableRawBufferPointer(col)
                    let output = UnsafeMutableRawBufferPointer(dst)
                    let vectorEnd = used - used % 16
                    for y in 0..<h {
                        let first = y * factor * width
                        // The box's rows are added one after another, each read as a single stream (sixteen columns at
                        // a time; the compiler does not vectorise this by itself). Read side by side, the loads from
                        // the second and third rows stalled: a 12 MP photo's first level took 1.35× as long.
                        for yy in 0..<factor {
                            let row = first &+ yy &* width
                            var x = 0
                            while x < vectorEnd {
                                let lanes = SIMD16<UInt16>(truncatingIfNeeded: source.loadUnaligned(fromByteOffset: row &+ x,
                                                                                                   as: SIMD16<UInt8>.self) ^ inversionLanes)
                                let sum = yy == 0 ? lanes : lanes &+ sums.loadUnaligned(fromByteOffset: 2 &* x, as: SIMD16<UInt16>.self)
                                sums.storeBytes(of: sum, toByteOffset: 2 &* x, as: SIMD16<UInt16>.self)
                                x &+= 16
                            }
                        }
                        for x in vectorEnd..<used {
                            var sum = UInt16(src[first + x] ^ inversion)
                            for yy in 1..<factor { sum &+= UInt16(src[first + yy * width + x] ^ inversion) }
                            col[x] = sum
                        }
                        let outRow = y * w
                        // The common factors get loops the compiler can unroll.
                        switch factor {
                        case 2:
                            // Eight output pixels at a time. Each two neighbouring column sums are read as one 32-bit lane
                            // whose halves are added (in either byte order) and divided by four with a shift: splitting
                            // sixteen sums into even and odd columns and multiplying by the reciprocal took SSE2's
                            // shuffles and emulated 32-bit multiplies, and twice the time.
                            let vectorOutputs = w - w % 8
                            var x = 0
                            while x < vectorOutputs {
                                let pair = sums.loadUnaligned(fromByteOffset: 4 &* x, as: SIMD8<UInt32>.self)
                                let s = (pair & 0xFFFF) &+ (pair &>> 16)
                                output.storeBytes(of: SIMD8<UInt8>(truncatingIfNeeded: s &>> 2),
                                                  toByteOffset: outRow &+ x, as: SIMD8<UInt8>.self)
                                x += 8
                            }
                            for x in vectorOutputs..<w {
                                dst[outRow + x] = UInt8(truncatingIfNeeded: (col[2 * x] &+ col[2 * x + 1]) &>> 2)
                            }
                        case 3:
                            // Through plain pointers and with wrapping index arithmetic (it cannot overflow here)
                            // the compiler vectorises these strided loads; buffer subscripts and checked
                            // multiplies kept the loop scalar. Both buffers are non-empty, so both addresses exist.
                            // A box's sum stays under 2¹² and floor(s · 7282 / 2¹⁶) equals floor(s / 9) for every
                            // s ≤ 2295 (checked exhaustively): summed in 16 bits and divided so, a 12 MP photo's level
                            // took 0.75× the time it took with 32-bit sums and the 2²⁴ reciprocal.
                            if let columnSums = col.baseAddress, let outputRow = dst.baseAddress.map({ $0 + outRow }) {
                                for x in 0..<w {
                                    let i = 3 &* x
                                    let s = columnSums[i] &+ columnSums[i &+ 1] &+ columnSums[i &+ 2]
                                    outputRow[x] = UInt8(truncatingIfNeeded: (UInt32(s) &* 7282) &>> 16)
                                }
                            }
                        default:
                            for x in 0..<w {
                                var s: UInt32 = 0
                                for k in 0..<factor { s &+= UInt32(col[x * factor + k]) }
                                dst[outRow + x] = UInt8(truncatingIfNeeded: (s &* reciprocal) >> 24)
                            }
                        }
                    }
                }
            }
            initialized = w * h
        }
        return LuminancePlane(width: w, height: h, pixels: out)
    }

    /// The plane enlarged twice in each direction, bicubically (``inversion`` applied): thresholds and finder
    /// scans of the enlarged plane place edges to half a pixel. Each output pixel lies a quarter of a source
    /// pixel from the nearest source pixel centre; in each direction it weighs that pixel, its neighbour on
    /// the near side and the two beyond them by Keys' cubic with a = −1, whose weights there are exact in
    /// 64ths (57, 19, −9, −3). Edges repeat the outer pixels. That kernel keeps module edges steeper than a
    /// bilinear enlargement or the usual a = −0.5, and steep edges are what small modules lack (see
    /// docs/reader.md, "Which passes run when"). Rows are enlarged across first and rounded to grey levels,
    /// so that both passes run in 16-bit integers.
    func enlarged() -> LuminancePlane {
        guard width > 0, height > 0 else { return self }
        let w = 2 * width, h = 2 * height
        let (width, height, inversion) = (self.width, self.height, self.inversion)
        // Source row y enlarged across in slot y mod 5: output rows 2y and 2y + 1 need rows y − 2 … y + 2.
        var rows = [Int16](repeating: 0, count: 5 * w)
        var padded = [Int16](repeating: 0, count: width + 4)
        let out = pixels.withUnsafeBufferPointer { src in
            rows.withUnsafeMutableBufferPointer { rows in
                padded.withUnsafeMutableBufferPointer { padded in
                    [UInt8](unsafeUninitializedCapacity: w * h) { dst, initialized in
                        guard let src = src.baseAddress, let rows = rows.baseAddress, let padded = padded.baseAddress,
                              let dst = dst.baseAddress else { return }
                        // Where source row y (from −4 on: adding 5 keeps the remainder's operand positive) lies in `rows`.
                        func slot(_ y: Int) -> Int { (y + 5) % 5 * w }
                        for y in -2..<(height + 2) {
                            let source = src + min(max(y, 0), height - 1) * width
                            Self.enlargeAcross(source, width: width, inversion: inversion, padded: padded, into: rows + slot(y))
                            // With rows y − 4 … y in, output rows 2(y − 2) and 2(y − 2) + 1 can be made.
                            guard y >= 2 else { continue }
                            Self.enlargeDown(rows, at: (slot(y - 4), slot(y - 3), slot(y - 2), slot(y - 1), slot(y)),
                                             width: w, into: dst + 2 * (y - 2) * w)
                        }
                        initialized = w * h
                    }
                }
            }
        }
        return out.count == w * h ? LuminancePlane(width: w, height: h, pixels: out) : self
    }

    /// The grey level nearest to what `a`, `b`, `c`, `d` (each a pixel apart) weigh a quarter pixel from `c`
    /// towards `b`, Keys' cubic (a = −1) in 64ths. Sums lie within −12 × 255 … 76 × 255: 16 bits hold them, and
    /// adding 32 rounds the division.
    @inline(__always)
    private static func cubic<V: SIMD>(_ a: V, _ b: V, _ c: V, _ d: V) -> V where V.Scalar == Int16 {
        ((19 &* b &+ 57 &* c &+ 32 &- 3 &* a &- 9 &* d) &>> 6).clamped(lowerBound: V(repeating: 0), upperBound: V(repeating: 255))
    }

    /// The two outputs around `c`, the middle of five pixels in a line: a quarter pixel from it towards `b`, and
    /// towards `d`, side by side.
    @inline(__always)
    private static func outputs(around c: Int16, _ a: Int16, _ b: Int16, _ d: Int16, _ e: Int16) -> SIMD2<Int16> {
        cubic(SIMD2(a, e), SIMD2(b, d), SIMD2(repeating: c), SIMD2(d, b))
    }

    /// The `width` pixels at `source` enlarged across into `row`, through `padded` (`width` + 4 values): the
    /// row with its end pixels repeated twice, so that the loop needs no clamping.
    private static func enlargeAcross(_ source: UnsafePointer<UInt8>, width: Int, inversion: UInt8,
                                      padded p: UnsafeMutablePointer<Int16>, into row: UnsafeMutablePointer<Int16>) {
        for x in 0..<width { p[x + 2] = Int16(source[x] ^ inversion) }
        (p[0], p[1], p[width + 2], p[width + 3]) = (p[2], p[2], p[width + 1], p[width + 1])
        for x in 0..<width {
            let pair = outputs(around: p[x + 2], p[x], p[x + 1], p[x + 3], p[x + 4])
            (row[2 * x], row[2 * x + 1]) = (pair[0], pair[1])
        }
    }

    /// Two output rows of `width` pixels at `dst` from the five enlarged rows around them, at `offsets` in `rows`
    /// top to bottom: a quarter pixel from the middle one towards the one above, and towards the one below.
    private static func enlargeDown(_ rows: UnsafePointer<Int16>, at offsets: (Int, Int, Int, Int, Int), width: Int,
                                    into dst: UnsafeMutablePointer<UInt8>) {
        let r = (rows + offsets.0, rows + offsets.1, rows + offsets.2, rows + offsets.3, rows + offsets.4)
        typealias Lanes = SIMD16<Int16>
        var x = 0
        func load(_ row: UnsafePointer<Int16>) -> Lanes { UnsafeRawPointer(row + x).loadUnaligned(as: Lanes.self) }
        func store(_ values: Lanes, at offset: Int) {
            UnsafeMutableRawPointer(dst + offset + x).storeBytes(of: SIMD16<UInt8>(truncatingIfNeeded: values),
                                                                as: SIMD16<UInt8>.self)
        }
        while x + Lanes.scalarCount <= width {
            let (a, b, c, d, e) = (load(r.0), load(r.1), load(r.2), load(r.3), load(r.4))
            store(cubic(a, b, c, d), at: 0)
            store(cubic(e, d, c, b), at: width)
            x += Lanes.scalarCount
        }
        for x in x..<width {
            let pair = outputs(around: r.2[x], r.0[x], r.1[x], r.3[x], r.4[x])
            (dst[x], dst[width + x]) = (UInt8(truncatingIfNeeded: pair[0]), UInt8(truncatingIfNeeded: pair[1]))
        }
    }

    /// The plane with every pixel inverted (light codes on dark backgrounds become dark on light). The
    /// pixels are shared, not copied: readers apply ``inversion`` as they load them, which on a 12 MP photo
    /// saves writing (and faulting in) 12 MB in every read that tries the inverted picture.
    func inverted() -> LuminancePlane {
        LuminancePlane(width: width, height: height, pixels: pixels, inversion: ~inversion)
    }
}
