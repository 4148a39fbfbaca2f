/// Pixels as a codec delivered them, 8 bits per sample with 1 (gray), 2 (gray + alpha), 3 (RGB) or 4 (RGBA)
/// channels, before conversion to the image type the caller asked for.
struct DecodedPixels {
    let width: Int
    let height: Int
    let channels: Int
    let samples: [UInt8]

    /// Gray pixels; alpha is composited onto white, colour reduced with `conversion`.
    func grayImage(conversion: GrayConversion) -> GrayImage {
        let count = width * height
        if channels == 1 { return GrayImage(uncheckedWidth: width, height: height, pixels: samples) }
        var gray = [UInt8](repeating: 0, count: count)
        samples.withUnsafeBufferPointer { s in
            switch channels {
            case 2:
                for i in 0..<count { gray[i] = GrayConversion.onWhite(s[2 * i], alpha: s[2 * i + 1]) }
            case 3:
                for i in 0..<count { gray[i] = conversion.gray(red: s[3 * i], green: s[3 * i + 1], blue: s[3 * i + 2]) }
            default:
                for i in 0..<count {
                    let alpha = s[4 * i + 3]
                    gray[i] = conversion.gray(red: GrayConversion.onWhite(s[4 * i], alpha: alpha),
                                              green: GrayConversion.onWhite(s[4 * i + 1], alpha: alpha),
                                              blue: GrayConversion.onWhite(s[4 * i + 2], alpha: alpha))
                }
            }
        }
        return GrayImage(uncheckedWidth: width, height: height, pixels: gray)
    }

    /// RGBA pixels with straight alpha (opaque where the source has no alpha).
    func rgbaImage() -> RGBAImage {
        let count = width * height
        if channels == 4 { return RGBAImage(uncheckedWidth: width, height: height, pixels: samples) }
        var rgba = [UInt8](repeating: 255, count: count * 4)
        samples.withUnsafeBufferPointer { s in
            for i in 0..<count {
                switch channels {
                case 1:
                    rgba[4 * i] = s[i]; rgba[4 * i + 1] = s[i]; rgba[4 * i + 2] = s[i]
                case 2:
                    rgba[4 * i] = s[2 * i]; rgba[4 * i + 1] = s[2 * i]; rgba[4 * i + 2] = s[2 * i]
                    rgba[4 * i + 3] = s[2 * i + 1]
                default:
                    rgba[4 * i] = s[3 * i]; rgba[4 * i + 1] = s[3 * i + 1]; rgba[4 * i + 2] = s[3 * i + 2]
                }
            }
        }
        return RGBAImage(uncheckedWidth: width, height: height, pixels: rgba)
    }
}
