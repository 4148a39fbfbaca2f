extension GrayImage {
    /// The image shrunk by an integer `factor` in both directions, each output pixel the rounded mean of
    /// a `factor` × `factor` block. Sizes round up; blocks at the right and bottom edges average only the
    /// pixels they contain, so output pixel (i, j) always covers source pixels from (i·factor, j·factor).
    public func downscaled(by factor: Int) throws(ImageError) -> GrayImage {
        guard factor >= 1 else { throw .invalidArgument("the downscale factor must be at least 1, not \(factor)") }
        if factor == 1 { return self }
        // A factor beyond both sides gives the same single pixel, and no arithmetic below can overflow.
        let factor = Swift.min(factor, Swift.max(width, height, 1))
        let outWidth = (width + factor - 1) / factor, outHeight = (height + factor - 1) / factor
        var sums = [Int](repeating: 0, count: outWidth)
        var result = [UInt8](repeating: 0, count: outWidth * outHeight)
        pixels.withUnsafeBufferPointer { source in
            for outY in 0..<outHeight {
                for i in sums.indices { sums[i] = 0 }
                let y0 = outY * factor, y1 = Swift.min(height, y0 + factor)
                for y in y0..<y1 {
                    let row = y * width
                    for x in 0..<width { sums[x / factor] += Int(source[row + x]) }
                }
                for outX in 0..<outWidth {
                    let count = (Swift.min(width, (outX + 1) * factor) - outX * factor) * (y1 - y0)
                    result[outY * outWidth + outX] = UInt8((sums[outX] + count / 2) / count)
                }
            }
        }
        return GrayImage(uncheckedWidth: outWidth, height: outHeight, pixels: result)
    }
}
