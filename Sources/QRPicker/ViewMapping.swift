import QRCore

/// How an image is fitted into a view, as UIKit's `contentMode` does it.
public enum ContentMode: String, Sendable, CaseIterable, Codable {
    /// Scaled uniformly to fit inside the view, centred (letterboxed).
    case aspectFit
    /// Scaled uniformly to cover the view, centred (cropped).
    case aspectFill
    /// Not scaled, centred.
    case center
    /// Scaled independently in x and y to fill the view exactly.
    case stretch
}

/// Where image coordinates start.
public enum ImageOrigin: String, Sendable, Codable {
    /// y grows downwards from the top-left corner (pixels, `ReadResult.corners`).
    case topLeft
    /// y grows upwards from the bottom-left corner (Core Image's `CIQRCodeFeature.bounds`).
    case bottomLeft
}

/// Maps points between an image and the view showing it: the origin flip, the aspect scale and the
/// centring offset that the seed apps compute by hand for `CIDetector` results. View coordinates have a
/// top-left origin.
public struct ViewMapping: Sendable, Equatable {
    public let imageSize: Size
    public let viewSize: Size
    public let contentMode: ContentMode
    public let imageOrigin: ImageOrigin
    /// View points per image pixel, horizontally and vertically.
    public let scaleX: Double
    public let scaleY: Double
    /// Where the image's top-left corner lands in the view.
    public let offset: Point

    public init(imageSize: Size, viewSize: Size, contentMode: ContentMode = .aspectFit, imageOrigin: ImageOrigin = .topLeft) {
        self.imageSize = imageSize
        self.viewSize = viewSize
        self.contentMode = contentMode
        self.imageOrigin = imageOrigin
        let sx = imageSize.width > 0 ? viewSize.width / imageSize.width : 1
        let sy = imageSize.height > 0 ? viewSize.height / imageSize.height : 1
        switch contentMode {
        case .aspectFit: (scaleX, scaleY) = (min(sx, sy), min(sx, sy))
        case .aspectFill: (scaleX, scaleY) = (max(sx, sy), max(sx, sy))
        case .center: (scaleX, scaleY) = (1, 1)
        case .stretch: (scaleX, scaleY) = (sx, sy)
        }
        offset = Point((viewSize.width - imageSize.width * scaleX) / 2, (viewSize.height - imageSize.height * scaleY) / 2)
    }

    /// The view point showing image point `p`.
    public func viewPoint(fromImage p: Point) -> Point {
        let y = imageOrigin == .bottomLeft ? imageSize.height - p.y : p.y
        return Point(offset.x + p.x * scaleX, offset.y + y * scaleY)
    }

    /// The image point shown at view point `p` (it may lie outside the image).
    public func imagePoint(fromView p: Point) -> Point {
        let x = (p.x - offset.x) / scaleX
        let y = (p.y - offset.y) / scaleY
        return Point(x, imageOrigin == .bottomLeft ? imageSize.height - y : y)
    }

    /// A quadrilateral in view coordinates.
    public func viewQuadrilateral(fromImage q: Quadrilateral) -> Quadrilateral { q.map(viewPoint(fromImage:)) }

    /// A rectangle in view coordinates (the bounding box of its mapped corners).
    public func viewRect(fromImage r: Rect) -> Rect {
        Rect(bounding: [Point(r.minX, r.minY), Point(r.maxX, r.maxY)].map(viewPoint(fromImage:)))
    }
}
