/// Decodes PNG, JPEG, PNM, GIF, BMP and TIFF data, recognised by its leading bytes, within `limits`; any page
/// of a multi-page TIFF (``pages(_:)``), one at a time.
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

    /// The pages of `bytes`, found once, for decoding one after another (``ImagePages``): the pages of a TIFF
    /// file (its full-resolution images; thumbnails and transparency masks are not pages), one for every other
    /// format. Only a TIFF's directories are read, not its pixels, so a damaged page is found when it is
    /// decoded, and the pages before it still decode. A chain of directories that loops back is counted once
    /// round, and at most 10,000 directories are read: untrusted files cannot make counting hang.
    public func pages(_ bytes: [UInt8]) throws(ImageError) -> ImagePages {
        guard bytes.count <= limits.maxFileSize else {
            throw .fileTooLarge(path: nil, bytes: bytes.count, limit: limits.maxFileSize)
        }
        let format = try ImageFormat.sniff(bytes)
        return ImagePages(bytes: bytes, format: format, tiff: format == .tiff ? try TIFFPages(bytes) : nil, decoder: self)
    }

    /// How many pages `bytes` hold (``pages(_:)``).
    public func pageCount(_ bytes: [UInt8]) throws(ImageError) -> Int {
        try pages(bytes).count
    }

    /// Reads the file at `path` (at most `limits.maxFileSize` bytes) and counts its pages (``pages(_:)``).
    public func pageCount(contentsOf path: String) throws(ImageError) -> Int {
        try pageCount(ImageFile.read(path, maxBytes: limits.maxFileSize))
    }

    /// Gray pixels for the reader. Alpha is composited onto white; colour is reduced with `conversion`
    /// (colour JPEGs with `.luminance` are reduced by libjpeg itself, which is much faster).
    ///
    /// `page` (counted from 0, below ``pageCount(_:)``) chooses the page of a multi-page TIFF; only that page
    /// is decoded. Another page of a single-page format, or one past a TIFF's last, is `.invalidArgument`.
    /// To decode several pages, find them once with ``pages(_:)``.
    public func decodeGray(_ bytes: [UInt8], page: Int = 0, conversion: GrayConversion = .luminance)
        throws(ImageError) -> DecodedImage<GrayImage> {
        try pages(bytes).decodeGray(page: page, conversion: conversion)
    }

    /// Colour pixels with straight alpha (opaque for formats without alpha), of `page` as for
    /// ``decodeGray(_:page:conversion:)``.
    public func decodeRGBA(_ bytes: [UInt8], page: Int = 0) throws(ImageError) -> DecodedImage<RGBAImage> {
        try pages(bytes).decodeRGBA(page: page)
    }

    /// Reads the file at `path` (at most `limits.maxFileSize` bytes) and decodes `page` of it to gray.
    public func decodeGray(contentsOf path: String, page: Int = 0, conversion: GrayConversion = .luminance)
        throws(ImageError) -> DecodedImage<GrayImage> {
        try decodeGray(ImageFile.read(path, maxBytes: limits.maxFileSize), page: page, conversion: conversion)
    }

    /// Reads the file at `path` (at most `limits.maxFileSize` bytes) and decodes `page` of it to RGBA.
    public func decodeRGBA(contentsOf path: String, page: Int = 0) throws(ImageError) -> DecodedImage<RGBAImage> {
        try decodeRGBA(ImageFile.read(path, maxBytes: limits.maxFileSize), page: page)
    }

    /// Page `page` of `bytes`, whose format is `format` and, for a TIFF, whose pages are `tiff`.
    func decode(_ bytes: [UInt8], format: ImageFormat, tiff: TIFFPages?, page: Int, grayscaleJPEG: Bool)
        throws(ImageError) -> (DecodedPixels, ImageFormat, ExifOrientation) {
        // Every format but TIFF holds one page; TIFF checks the page against its own count.
        guard format == .tiff || page == 0 else { throw .pageOutOfRange(page, count: 1) }
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
            // Walked here only if the caller had not (``ImagePages`` has).
            let pages = if let tiff { tiff } else { try TIFFPages(bytes) }
            let (pixels, orientation) = try TIFFDecoding.decode(bytes, page: page, of: pages, limits: limits)
            return (pixels, format, orientation)
        }
    }
}
