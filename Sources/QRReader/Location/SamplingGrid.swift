import QRCore

/// Where each module of a candidate symbol lies in the image: one homography from module coordinates
/// (0…dimension, origin at the symbol's top-left corner) to pixels, optionally refined piecewise between
/// alignment patterns for large, bent or distorted symbols.
struct SamplingGrid: Sendable {
    let dimension: Int
    let transform: PerspectiveTransform
    private let tiles: Tiles?

    /// Piecewise transforms between anchor rows/columns (module coordinates, ascending).
    struct Tiles: Sendable {
        let anchors: [Double]
        /// cells[j * (anchors.count − 1) + i] maps the cell between anchors i…i+1 (x) and j…j+1 (y).
        let cells: [PerspectiveTransform]
    }

    init(dimension: Int, transform: PerspectiveTransform, tiles: Tiles? = nil) {
        self.dimension = dimension
        self.transform = transform
        self.tiles = tiles
    }

    var isTiled: Bool { tiles != nil }

    /// The pixel position of module coordinates (x, y); module centres are at +0.5.
    @inline(__always)
    func pixel(_ x: Double, _ y: Double) -> Point {
        guard let tiles else { return transform.apply(Point(x, y)) }
        let n = tiles.anchors.count - 1
        var i = 0, j = 0
        while i < n - 1 && x >= tiles.anchors[i + 1] { i += 1 }
        while j < n - 1 && y >= tiles.anchors[j + 1] { j += 1 }
        return tiles.cells[j * n + i].apply(Point(x, y))
    }

    /// The symbol's outer corners in the image: module (0,0), (d,0), (d,d), (0,d).
    var corners: Quadrilateral {
        let d = Double(dimension)
        return Quadrilateral(topLeft: pixel(0, 0), topRight: pixel(d, 0), bottomRight: pixel(d, d), bottomLeft: pixel(0, d))
    }

    /// The approximate size of a module in pixels near the symbol's centre.
    var moduleSize: Double {
        let c = Double(dimension) / 2
        return (pixel(c + 0.5, c).distance(to: pixel(c - 0.5, c)) + pixel(c, c + 0.5).distance(to: pixel(c, c - 0.5))) / 2
    }
}
