/// Decodes PNG, JPEG, PNM, GIF, BMP and TIFF data, recognised by its leading bytes, within `limits`.
///
/// Untrusted input never crashes the process: damaged, truncated or oversized data throws an
/// `ImageError`. Truncated files are always refused (`.truncated`), never returned partially decoded.
public struct ImageDecoder: Sendable {
    /// Bounds checked before memory is committed to the image.
    public var limits: ImageLimits

    /// A decoder with the default limits (100 megapixels, 256 MiB) unless given others.
    public init(limits: ImageLimits = ImageLimits()) {
        self.limits = limits
    }

    /// Gray pixels for the reader. Alpha is composited onto white; colour is reduced with `conversion`
    /// (colour JPEGs with `.luminance` are reduced by libjpeg itself, which is much faster).
    public func decodeGray(_ bytes: [UInt8], conversion: GrayConversion = .luminance)
        throws(ImageError) -> DecodedImage<GrayImage> {
        let (pixels, format, orientation) = try decode(bytes, grayscaleJPEG: conversion == .luminance)
        return DecodedImage(image: pixels.grayImage(conversion: conversion), format: format, orientation: orientation)
    }

    /// Colour pixels with straight alpha (opaque for formats without alpha).
    public func decodeRGBA(_ bytes: [UInt8]) throws(ImageError) -> DecodedImage<RGBAImage> {
        let (pixels, format, orientation) = try decode(bytes, grayscaleJPEG: false)
        return DecodedImage(image: pixels.rgbaImage(), format: format, orientation: orientation)
    }

    /// Reads the file at `path` (at most `limits.maxFileSize` bytes) and decodes it to gray.
    public func decodeGray(contentsOf path: String, conversion: GrayConversion = .luminance)
        throws(ImageError) -> DecodedImage<GrayImage> {
        try decodeGray(ImageFile.read(path, maxBytes: limits.maxFileSize), conversion: conversion)
    }

    /// Reads the file at `path` (at most `limits.maxFileSize` bytes) and decodes it to RGBA.
    public func decodeRGBA(contentsOf path: String) throws(ImageError) -> DecodedImage<RGBAImage> {
        try decodeRGBA(ImageFile.read(path, maxBytes: limits.maxFileSize))
    }

    private func decode(_ bytes: [UInt8], grayscaleJPEG: Bool)
        throws(ImageError) -> (DecodedPixels, ImageFormat, ExifOrientation) {
        guard bytes.count <= limits.maxFileSize else {
            throw .fileTooLarge(path: nil, bytes: bytes.count, limit: limits.maxFileSize)
        }
        let format = try ImageFormat.sniff(bytes)
        switch format {
        case .png:
            return (try PNGDecoding.decode(bytes, limits: limits), format, .up)
        case .jpeg:
            let pixels = try JPEGDecoding.decode(bytes, grayscale: grayscaleJPEG, limits: limits)
            return (pixels, format, ExifReader.orientation(inJPEG: bytes) ?? .up)
        case .pnm:
            return (try PNMDecoding.decode(bytes, limits: limits), format, .up)
        case .gif:
            return (try GIFDecoding.decode(bytes, limits: limits), format, .up)
        case .bmp:
            return (try BMPDecoding.decode(bytes, limits: limits), format, .up)
        case .tiff:
            let (pixels, orientation) = try TIFFDecoding.decode(bytes, limits: limits)
            return (pixels, format, orientation)
        }
    }
}
