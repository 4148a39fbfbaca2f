/// Turns the samples TIFF decoding kept (colour samples and alpha, 8 bits each) into the channels of
/// ``DecodedPixels``: gray, gray and alpha, RGB or RGBA, with straight alpha.
enum TIFFColor {
    static func pixels(_ kept: [UInt8], layout: TIFFLayout) -> DecodedPixels {
        var samples = kept
        let colors = layout.photometric.colorSamples, hasAlpha = layout.alpha != nil
        let stride = colors + (hasAlpha ? 1 : 0), count = layout.width * layout.height
        samples.withUnsafeMutableBufferPointer { s in
            if layout.alpha?.associated == true, layout.colorTable == nil {
                // Premultiplied colour divided by its alpha; fully transparent pixels have no colour left.
                for base in Swift.stride(from: 0, to: s.count, by: stride) {
                    let alpha = Int(s[base + colors])
                    for c in base..<base + colors {
                        s[c] = alpha == 0 ? 0 : UInt8(min(255, (Int(s[c]) * 255 + alpha / 2) / alpha))
                    }
                }
            }
            if layout.photometric == .whiteIsZero {
                for base in Swift.stride(from: 0, to: s.count, by: stride) { s[base] = 255 - s[base] }
            }
        }
        let channels: Int
        if let table = layout.colorTable {
            channels = hasAlpha ? 4 : table.isGray ? 1 : 3
            samples = painted(samples, table: table, stride: stride, channels: channels, count: count)
        } else if layout.photometric == .cmyk {
            channels = hasAlpha ? 4 : 3
            samples = rgb(fromCMYK: samples, stride: stride, channels: channels, count: count)
        } else {
            channels = stride
        }
        return DecodedPixels(width: layout.width, height: layout.height, channels: channels, samples: samples)
    }

    /// Palette indices (with alpha after each when `stride` is 2) in the table's colours.
    private static func painted(_ samples: [UInt8], table: ColorTable, stride: Int, channels: Int, count: Int) -> [UInt8] {
        let indices = stride == 1 ? samples : Swift.stride(from: 0, to: samples.count, by: stride).map { samples[$0] }
        var out = [UInt8](repeating: 0, count: count * channels)
        out.withUnsafeMutableBufferPointer { out in
            indices.withUnsafeBufferPointer { table.paint($0, into: out, channels: channels) }
            if stride == 2 {
                for pixel in 0..<count { out[4 * pixel + 3] = samples[2 * pixel + 1] }
            }
        }
        return out
    }

    /// Ink amounts to light: each of red, green and blue is what its ink (cyan, magenta, yellow) and black
    /// leave of white. Alpha, if any, follows.
    private static func rgb(fromCMYK samples: [UInt8], stride: Int, channels: Int, count: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count * channels)
        for pixel in 0..<count {
            let source = pixel * stride, target = pixel * channels
            let black = 255 - Int(samples[source + 3])
            for c in 0..<3 { out[target + c] = UInt8(((255 - Int(samples[source + c])) * black + 127) / 255) }
            if channels == 4 { out[target + 3] = samples[source + 4] }
        }
        return out
    }
}
