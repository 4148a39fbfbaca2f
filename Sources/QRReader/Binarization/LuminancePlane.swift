/// 8-bit luminance pixels, row-major, that the reader works on (0 = black, 255 = white).
struct LuminancePlane: Sendable {
    let width: Int
    let height: Int
    let pixels: [UInt8]

    init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height, "pixel count does not match size")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Bilinear luminance at a point in pixel coordinates (pixel centres at +0.5); nil outside the image.
    @inline(__always)
    func sample(_ x: Double, _ y: Double) -> Double? {
        let fx = x - 0.5, fy = y - 0.5
        guard fx > -1, fy > -1, fx < Double(width), fy < Double(height) else { return nil }
        let x0 = max(0, min(width - 1, Int(fx.rounded(.down))))
        let y0 = max(0, min(height - 1, Int(fy.rounded(.down))))
        let x1 = min(width - 1, x0 + 1), y1 = min(height - 1, y0 + 1)
        let ax = max(0, min(1, fx - Double(x0))), ay = max(0, min(1, fy - Double(y0)))
        return pixels.withUnsafeBufferPointer { p in
            let top = Double(p[y0 * width + x0]) * (1 - ax) + Double(p[y0 * width + x1]) * ax
            let bottom = Double(p[y1 * width + x0]) * (1 - ax) + Double(p[y1 * width + x1]) * ax
            return top * (1 - ay) + bottom * ay
        }
    }

    /// The plane shrunk by an integer factor, each output pixel the mean of a factor × factor box.
    func downscaled(by factor: Int) -> LuminancePlane {
        guard factor > 1 else { return self }
        let w = width / factor, h = height / factor
        var out = [UInt8](repeating: 0, count: w * h)
        var sums = [UInt32](repeating: 0, count: w)
        let area = UInt32(factor * factor)
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                sums.withUnsafeMutableBufferPointer { sum in
                    for y in 0..<h {
                        for i in 0..<w { sum[i] = 0 }
                        for yy in 0..<factor {
                            let row = src.baseAddress! + (y * factor + yy) * width
                            // The common factors get loops the compiler can unroll.
                            switch factor {
                            case 2: for x in 0..<w { sum[x] &+= UInt32(row[2 * x]) &+ UInt32(row[2 * x + 1]) }
                            case 3: for x in 0..<w { sum[x] &+= UInt32(row[3 * x]) &+ UInt32(row[3 * x + 1]) &+ UInt32(row[3 * x + 2]) }
                            default:
                                for x in 0..<w {
                                    var s: UInt32 = 0
                                    for k in 0..<factor { s &+= UInt32(row[x * factor + k]) }
                                    sum[x] &+= s
                                }
                            }
                        }
                        let outRow = dst.baseAddress! + y * w
                        for x in 0..<w { outRow[x] = UInt8(truncatingIfNeeded: sum[x] / area) }
                    }
                }
            }
        }
        return LuminancePlane(width: w, height: h, pixels: out)
    }

    /// The plane with every pixel inverted (light codes on dark backgrounds become dark on light).
    func inverted() -> LuminancePlane {
        LuminancePlane(width: width, height: height, pixels: pixels.mapBytes { 255 - $0 })
    }
}

extension Array where Element == UInt8 {
    /// A byte-wise transform written so the compiler vectorises it.
    @inline(__always)
    func mapBytes(_ transform: (UInt8) -> UInt8) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            withUnsafeBufferPointer { source in
                for i in 0..<source.count { buffer[i] = transform(source[i]) }
            }
            initialized = count
        }
    }
}
