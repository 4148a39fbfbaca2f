/// A decoded image in its stored frame, with what the file said about it.
public struct DecodedImage<Image: Sendable & Hashable>: Sendable, Hashable {
    /// The pixels as stored in the file, not yet turned by `orientation`.
    public let image: Image
    /// The format the data was in.
    public let format: ImageFormat
    /// How to turn `image` to display it upright (JPEG Exif, TIFF Orientation; `.up` for other formats).
    public let orientation: ExifOrientation

    /// Wraps decoded pixels with what the file said about them.
    public init(image: Image, format: ImageFormat, orientation: ExifOrientation) {
        self.image = image
        self.format = format
        self.orientation = orientation
    }
}
