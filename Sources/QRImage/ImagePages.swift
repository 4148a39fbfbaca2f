/// The pages of an image file, found once by ``ImageDecoder/pages(_:)``, for decoding one after another: a
/// multi-page TIFF's chain of directories is walked once, not again for every page (a crafted file of 10,000
/// tiny pages took 16 s to read page by page that way, the walks' time growing with the square of the pages).
public struct ImagePages: Sendable {
    private let bytes: [UInt8]
    /// The file's format, told by its leading bytes.
    public let format: ImageFormat
    private let tiff: TIFFPages?
    private let decoder: ImageDecoder

    init(bytes: [UInt8], format: ImageFormat, tiff: TIFFPages?, decoder: ImageDecoder) {
        (self.bytes, self.format, self.tiff, self.decoder) = (bytes, format, tiff, decoder)
    }

    /// How many pages the file has: 1 but for a multi-page TIFF.
    public var count: Int { tiff?.count ?? 1 }

    /// Page `page` (from 0, below ``count``) as gray pixels, as ``ImageDecoder/decodeGray(_:page:conversion:)``
    /// gives them; only that page is decoded.
    public func decodeGray(page: Int, conversion: GrayConversion = .luminance) throws(ImageError) -> DecodedImage<GrayImage> {
        let (pixels, format, orientation) = try decoder.decode(bytes, format: format, tiff: tiff, page: page,
                                                               grayscaleJPEG: conversion == .luminance)
        return DecodedImage(image: pixels.grayImage(conversion: conversion), format: format, orientation: orientation)
    }

    /// Page `page` (from 0, below ``count``) as colour pixels with straight alpha, as
    /// ``ImageDecoder/decodeRGBA(_:page:)`` gives them.
    public func decodeRGBA(page: Int) throws(ImageError) -> DecodedImage<RGBAImage> {
        let (pixels, format, orientation) = try decoder.decode(bytes, format: format, tiff: tiff, page: page, grayscaleJPEG: false)
        return DecodedImage(image: pixels.rgbaImage(), format: format, orientation: orientation)
    }
}
