extension RGBAImage {
    /// The image scaled to `width` × `height` for logos and previews: each direction is area-averaged
    /// when shrinking (every source pixel contributes by its overlap, no aliasing) and bilinearly
    /// interpolated when enlarging. Colours are averaged premultiplied by alpha, so transparent pixels do
    /// not darken edges. For crisp pixel art use `upscaled(by:)`.
    public func resized(width newWidth: Int, height newHeight: Int) throws(ImageError) -> RGBAImage {
        let count = try ImageDimensions.sampleCount(width: newWidth, height: newHeight, channels: 4)
        if newWidth == width && newHeight == height { return self }
        let columns = ResamplingWeights(source: width, destination: newWidth)
        let rows = ResamplingWeights(source: height, destination: newHeight)

        // Horizontal pass (width → newWidth) on premultiplied samples in 0…1, a source row at a time so a
        // large logo is never held as floats whole; then the vertical pass (height → newHeight).
        var horizontal = [Float](repeating: 0, count: try ImageDimensions.sampleCount(width: newWidth, height: height,
                                                                                      channels: 4))
        var row = [Float](repeating: 0, count: width * 4)
        for y in 0..<height {
            for x in 0..<width {
                let i = 4 * (y * width + x)
                let alpha = Float(pixels[i + 3]) / 255
                for c in 0..<3 { row[4 * x + c] = Float(pixels[i + c]) / 255 * alpha }
                row[4 * x + 3] = alpha
            }
            for x in 0..<newWidth {
                let (first, weights) = columns.contributions[x]
                let to = (y * newWidth + x) * 4
                for (k, weight) in weights.enumerated() {
                    for c in 0..<4 { horizontal[to + c] += row[(first + k) * 4 + c] * weight }
                }
            }
        }
        var result = [UInt8](repeating: 0, count: count)
        var sample = [Float](repeating: 0, count: 4)
        for y in 0..<newHeight {
            let (first, weights) = rows.contributions[y]
            for x in 0..<newWidth {
                for c in 0..<4 { sample[c] = 0 }
                for (k, weight) in weights.enumerated() {
                    let from = ((first + k) * newWidth + x) * 4
                    for c in 0..<4 { sample[c] += horizontal[from + c] * weight }
                }
                let alpha = Swift.min(1, Swift.max(0, sample[3]))
                let to = (y * newWidth + x) * 4
                result[to + 3] = UInt8((alpha * 255).rounded())
                guard alpha > 0 else { continue }
                for c in 0..<3 { result[to + c] = UInt8((Swift.min(1, Swift.max(0, sample[c] / alpha)) * 255).rounded()) }
            }
        }
        return RGBAImage(uncheckedWidth: newWidth, height: newHeight, pixels: result)
    }
}

/// For each destination index along one axis, the first source index and the weights of the consecutive
/// source indices it blends (weights sum to 1).
private struct ResamplingWeights {
    let contributions: [(first: Int, weights: [Float])]

    init(source: Int, destination: Int) {
        let scale = Double(source) / Double(destination)
        if destination < source {
            // Area average: destination pixel i covers source interval [i·scale, (i+1)·scale).
            contributions = (0..<destination).map { i in
                let start = Double(i) * scale, end = Swift.min(Double(source), Double(i + 1) * scale)
                let first = Int(start), last = Swift.min(source - 1, Int((end - 1e-9).rounded(.down)))
                let weights = (first...Swift.max(first, last)).map { j in
                    Float((Swift.min(end, Double(j + 1)) - Swift.max(start, Double(j))) / scale)
                }
                return (first, weights)
            }
        } else {
            // Bilinear between the two nearest source pixel centres, clamped at the edges.
            contributions = (0..<destination).map { i in
                let position = Swift.max(0, Swift.min(Double(source - 1), (Double(i) + 0.5) * scale - 0.5))
                let first = Swift.min(Int(position), Swift.max(0, source - 2))
                let fraction = Float(position - Double(first))
                return source == 1 ? (0, [1]) : (first, [1 - fraction, fraction])
            }
        }
    }
}
