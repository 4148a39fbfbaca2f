import QRCore

/// Reads module colours through a sampling grid, from the binary image or from luminance.
enum ModuleSampler {
    /// Luminance taps: the centre and the four points this far from it along both of the grid's axes.
    private static let luminanceTap = 0.15

    /// Where each module's centre lies in the image, and the pixel steps of one module along the grid's
    /// rows and columns there. Taps around a centre then cost a multiply-add each instead of a projection
    /// through the grid; within one module the grid is affine to far below a pixel.
    private struct ModuleFrame {
        let width: Int, height: Int
        /// Centres of a lattice one module larger on every side than the grid, row-major.
        private let centres: [Point]

        init(_ grid: SamplingGrid) {
            width = grid.width
            height = grid.height
            let w = grid.width + 2, h = grid.height + 2
            var centres = [Point]()
            centres.reserveCapacity(w * h)
            for y in 0..<h {
                grid.forEachPixel(alongRow: Double(y) - 0.5, from: -0.5, count: w) { _, centre in centres.append(centre) }
            }
            self.centres = centres
        }

        /// Calls `body` with each module's index (row-major), its centre and its one-module steps along the
        /// grid's rows and columns: a tap offset by (dx, dy) modules lies at centre + stepX · dx + stepY · dy.
        @inline(__always)
        func forEachModule(_ body: (_ index: Int, _ centre: Point, _ stepX: Point, _ stepY: Point) -> Void) {
            let stride = width + 2
            centres.withUnsafeBufferPointer { centres in
                for y in 0..<height {
                    for x in 0..<width {
                        let i = (y + 1) * stride + x + 1
                        body(y * width + x, centres[i], (centres[i + 1] - centres[i - 1]) / 2,
                             (centres[i + stride] - centres[i - stride]) / 2)
                    }
                }
            }
        }
    }

    /// Modules from the binary image: the pixel under each module's centre, as the classic decoders sample.
    /// Majorities of five taps per module read no more codes in the development corpus, upright or turned,
    /// and cost about a seventh of a small picture's decode; noise at a centre is left to the luminance
    /// sampling, which averages taps.
    static func sample(_ grid: SamplingGrid, binary image: BinaryImage) -> BitMatrix {
        let w = grid.width, h = grid.height
        var modules = BitMatrix(width: w, height: h)
        modules.storage.withUnsafeMutableBufferPointer { out in
            for y in 0..<h {
                grid.forEachPixel(alongRow: Double(y) + 0.5, from: 0.5, count: w) { x, p in
                    out[y * w + x] = image.isDark(at: p.x, p.y) ? 1 : 0
                }
            }
        }
        return modules
    }

    /// Module values from luminance: the mean of five taps around each module's centre (-1 for modules
    /// wholly outside the image), to be thresholded by ``LuminanceSamples/modules(sharpened:)``.
    static func sample(_ grid: SamplingGrid, luminance plane: LuminancePlane) -> LuminanceSamples {
        let w = grid.width, h = grid.height
        var values = [Float](repeating: -1, count: w * h)
        let right = Double(plane.width) - 0.5, bottom = Double(plane.height) - 0.5
        // The taps read the pixels without bounds checks where the reach test below allows it.
        values.withUnsafeMutableBufferPointer { values in
            plane.pixels.withUnsafeBufferPointer { pixels in
                ModuleFrame(grid).forEachModule { index, centre, stepX, stepY in
                    let alongX = stepX * luminanceTap, alongY = stepY * luminanceTap
                    // The taps lie within this reach of the centre along each image axis.
                    let reachX = max(abs(alongX.x), abs(alongY.x)), reachY = max(abs(alongX.y), abs(alongY.y))
                    if centre.x - reachX >= 0.5, centre.x + reachX < right, centre.y - reachY >= 0.5, centre.y + reachY < bottom {
                        // All five taps between pixel centres (nearly every module): sampled without checks.
                        @inline(__always) func tap(_ p: Point) -> Double { plane.interiorSample(p.x, p.y, in: pixels) }
                        let total = tap(centre) + tap(centre - alongX) + tap(centre + alongX) + tap(centre - alongY) + tap(centre + alongY)
                        values[index] = Float(total / 5)
                    } else {
                        // Near the image's edges: only the taps inside count.
                        var total = 0.0, taps = 0.0
                        func add(_ p: Point) {
                            if let v = plane.sample(p.x, p.y, in: pixels) {
                                total += v
                                taps += 1
                            }
                        }
                        add(centre)
                        add(centre - alongX)
                        add(centre + alongX)
                        add(centre - alongY)
                        add(centre + alongY)
                        if taps > 0 { values[index] = Float(total / taps) }
                    }
                }
            }
        }
        return LuminanceSamples(width: w, height: h, values: values)
    }

    /// Per-module values (confidences) of a square grid, transposed like a mirrored symbol's modules.
    static func transposed(_ values: [Float], size: Int) -> [Float] {
        var result = values
        for y in 0..<size { for x in 0..<size { result[x * size + y] = values[y * size + x] } }
        return result
    }
}
