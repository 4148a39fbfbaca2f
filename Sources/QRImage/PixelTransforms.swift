/// Lossless geometric operations shared by gray and colour images.
enum PixelTransforms {
    /// The image as displayed with `orientation` (rotations and mirrors are all orientations).
    static func reoriented<Image: InterleavedImage>(_ image: Image, _ orientation: ExifOrientation) -> Image {
        if orientation == .up { return image }
        let channels = Image.channels
        let (width, height) = orientation.orientedSize(width: image.width, height: image.height)
        var result = [UInt8](repeating: 0, count: image.pixels.count)
        image.pixels.withUnsafeBufferPointer { source in
            for y in 0..<image.height {
                for x in 0..<image.width {
                    let target = orientation.displayPixel(x: x, y: y, width: image.width, height: image.height)
                    let from = (y * image.width + x) * channels, to = (target.y * width + target.x) * channels
                    for c in 0..<channels { result[to + c] = source[from + c] }
                }
            }
        }
        return Image(uncheckedWidth: width, height: height, pixels: result)
    }

    /// The part of the image inside the rectangle, which is clipped to the image; empty results are refused.
    static func cropped<Image: InterleavedImage>(_ image: Image, x: Int, y: Int, width: Int, height: Int)
        throws(ImageError) -> Image {
        let x0 = Swift.max(0, x), y0 = Swift.max(0, y)
        let x1 = Swift.min(image.width, clampedEnd(x, width)), y1 = Swift.min(image.height, clampedEnd(y, height))
        guard x1 > x0, y1 > y0 else {
            throw .invalidArgument("the crop rectangle \(width)×\(height) at (\(x), \(y)) lies outside the "
                + "\(image.width)×\(image.height) image")
        }
        let channels = Image.channels
        var result: [UInt8] = []
        result.reserveCapacity((x1 - x0) * (y1 - y0) * channels)
        for row in y0..<y1 {
            result += image.pixels[(row * image.width + x0) * channels..<(row * image.width + x1) * channels]
        }
        return Image(uncheckedWidth: x1 - x0, height: y1 - y0, pixels: result)
    }

    /// Every pixel repeated `factor` × `factor` times (nearest neighbour: edges stay perfectly sharp).
    static func upscaled<Image: InterleavedImage>(_ image: Image, by factor: Int) throws(ImageError) -> Image {
        guard factor >= 1 else { throw .invalidArgument("the scale factor must be at least 1, not \(factor)") }
        if factor == 1 { return image }
        let (width, overflowW) = image.width.multipliedReportingOverflow(by: factor)
        let (height, overflowH) = image.height.multipliedReportingOverflow(by: factor)
        guard !overflowW, !overflowH else { throw .invalidArgument("scaling by \(factor) overflows the image size") }
        let count = try ImageDimensions.sampleCount(width: width, height: height, channels: Image.channels)
        let channels = Image.channels
        var result: [UInt8] = []
        result.reserveCapacity(count)
        var row: [UInt8] = []
        row.reserveCapacity(width * channels)
        for y in 0..<image.height {
            row.removeAll(keepingCapacity: true)
            for x in 0..<image.width {
                let pixel = image.pixels[(y * image.width + x) * channels..<(y * image.width + x + 1) * channels]
                for _ in 0..<factor { row += pixel }
            }
            for _ in 0..<factor { result += row }
        }
        return Image(uncheckedWidth: width, height: height, pixels: result)
    }

    /// `start + length` without overflow (saturating), for clipping rectangles given by untrusted values.
    static func clampedEnd(_ start: Int, _ length: Int) -> Int {
        guard length > 0 else { return start }
        let (end, overflow) = start.addingReportingOverflow(length)
        return overflow ? Int.max : end
    }
}

/// Clockwise rotation by a multiple of 90°.
public enum Rotation: Int, Sendable, Hashable, CaseIterable {
    case clockwise90 = 90
    case clockwise180 = 180
    case clockwise270 = 270

    var orientation: ExifOrientation {
        switch self {
        case .clockwise90: .right
        case .clockwise180: .down
        case .clockwise270: .left
        }
    }
}

extension GrayImage {
    /// The part inside the rectangle, clipped to the image; throws if nothing remains.
    public func cropped(x: Int, y: Int, width: Int, height: Int) throws(ImageError) -> GrayImage {
        try PixelTransforms.cropped(self, x: x, y: y, width: width, height: height)
    }

    /// Each pixel repeated `factor` × `factor` times, without interpolation.
    public func upscaled(by factor: Int) throws(ImageError) -> GrayImage {
        try PixelTransforms.upscaled(self, by: factor)
    }

    /// The image turned clockwise.
    public func rotated(_ rotation: Rotation) -> GrayImage { PixelTransforms.reoriented(self, rotation.orientation) }

    /// The image mirrored left to right.
    public func flippedHorizontally() -> GrayImage { PixelTransforms.reoriented(self, .upMirrored) }

    /// The image mirrored top to bottom.
    public func flippedVertically() -> GrayImage { PixelTransforms.reoriented(self, .downMirrored) }
}

extension RGBAImage {
    /// The part inside the rectangle, clipped to the image; throws if nothing remains.
    public func cropped(x: Int, y: Int, width: Int, height: Int) throws(ImageError) -> RGBAImage {
        try PixelTransforms.cropped(self, x: x, y: y, width: width, height: height)
    }

    /// Each pixel repeated `factor` × `factor` times, without interpolation.
    public func upscaled(by factor: Int) throws(ImageError) -> RGBAImage {
        try PixelTransforms.upscaled(self, by: factor)
    }

    /// The image turned clockwise.
    public func rotated(_ rotation: Rotation) -> RGBAImage { PixelTransforms.reoriented(self, rotation.orientation) }

    /// The image mirrored left to right.
    public func flippedHorizontally() -> RGBAImage { PixelTransforms.reoriented(self, .upMirrored) }

    /// The image mirrored top to bottom.
    public func flippedVertically() -> RGBAImage { PixelTransforms.reoriented(self, .downMirrored) }
}
