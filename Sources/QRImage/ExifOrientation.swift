import QRCore

/// How the stored pixels of a photo must be turned to display upright (Exif tag 0x0112, values 1–8; TIFF's
/// Orientation field is the same tag).
///
/// Case names follow Apple's `CGImagePropertyOrientation`: they say where the stored image's top ends up.
/// Points use continuous pixel coordinates: the stored image spans 0…width × 0…height and the centre of
/// pixel (x, y) is (x + 0.5, y + 0.5).
public enum ExifOrientation: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// 1: stored upright.
    case up = 1
    /// 2: mirrored left to right.
    case upMirrored = 2
    /// 3: rotated 180°.
    case down = 3
    /// 4: mirrored top to bottom.
    case downMirrored = 4
    /// 5: mirrored about the main diagonal (transposed).
    case leftMirrored = 5
    /// 6: must be rotated 90° clockwise to display (the usual portrait phone photo).
    case right = 6
    /// 7: mirrored about the anti-diagonal.
    case rightMirrored = 7
    /// 8: must be rotated 90° counter-clockwise to display.
    case left = 8

    public var description: String { "\(rawValue) (\(self.name))" }

    private var name: String {
        ["up", "up mirrored", "down", "down mirrored", "left mirrored", "right", "right mirrored", "left"][rawValue - 1]
    }

    /// Whether display width and height are the stored height and width.
    public var swapsDimensions: Bool { rawValue >= 5 }

    /// The displayed size of a stored `width` × `height` image.
    public func orientedSize(width: Int, height: Int) -> (width: Int, height: Int) {
        swapsDimensions ? (height, width) : (width, height)
    }

    /// Where a point of the stored image appears in the displayed image.
    public func displayPoint(fromStored p: Point, storedWidth: Int, storedHeight: Int) -> Point {
        let w = Double(storedWidth), h = Double(storedHeight)
        switch self {
        case .up: return p
        case .upMirrored: return Point(w - p.x, p.y)
        case .down: return Point(w - p.x, h - p.y)
        case .downMirrored: return Point(p.x, h - p.y)
        case .leftMirrored: return Point(p.y, p.x)
        case .right: return Point(h - p.y, p.x)
        case .rightMirrored: return Point(h - p.y, w - p.x)
        case .left: return Point(p.y, w - p.x)
        }
    }

    /// Where a point of the displayed image lies in the stored image (the inverse of `displayPoint`).
    public func storedPoint(fromDisplay p: Point, storedWidth: Int, storedHeight: Int) -> Point {
        let w = Double(storedWidth), h = Double(storedHeight)
        switch self {
        case .up: return p
        case .upMirrored: return Point(w - p.x, p.y)
        case .down: return Point(w - p.x, h - p.y)
        case .downMirrored: return Point(p.x, h - p.y)
        case .leftMirrored: return Point(p.y, p.x)
        case .right: return Point(p.y, h - p.x)
        case .rightMirrored: return Point(w - p.y, h - p.x)
        case .left: return Point(w - p.y, p.x)
        }
    }

    /// The displayed image of a stored gray image.
    public func apply(to image: GrayImage) -> GrayImage { PixelTransforms.reoriented(image, self) }

    /// The displayed image of a stored colour image.
    public func apply(to image: RGBAImage) -> RGBAImage { PixelTransforms.reoriented(image, self) }

    /// The display position of stored pixel (x, y) in an image of `width` × `height` pixels.
    func displayPixel(x: Int, y: Int, width: Int, height: Int) -> (x: Int, y: Int) {
        switch self {
        case .up: return (x, y)
        case .upMirrored: return (width - 1 - x, y)
        case .down: return (width - 1 - x, height - 1 - y)
        case .downMirrored: return (x, height - 1 - y)
        case .leftMirrored: return (y, x)
        case .right: return (height - 1 - y, x)
        case .rightMirrored: return (height - 1 - y, width - 1 - x)
        case .left: return (y, width - 1 - x)
        }
    }
}
