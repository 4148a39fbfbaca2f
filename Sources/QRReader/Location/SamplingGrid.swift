import QRCore

/// Where each module of a candidate symbol lies in the image: one homography from module coordinates
/// (0…width × 0…height, origin at the symbol's top-left corner) to pixels, optionally refined piecewise between
/// alignment patterns for large, bent or distorted symbols.
struct SamplingGrid: Sendable {
    /// Modules per row.
    let width: Int
    /// Rows of modules (equal to `width` except for rectangular symbols).
    let height: Int
    let transform: PerspectiveTransform
    private let tiles: Tiles?

    /// Piecewise transforms between anchor rows/columns (module coordinates, ascending).
    struct Tiles: Sendable {
        let anchors: [Double]
        /// cells[j * (anchors.count − 1) + i] maps the cell between anchors i…i+1 (x) and j…j+1 (y).
        let cells: [PerspectiveTransform]

        /// Tiles mapping each cell of the mesh on `anchors` (along both axes) exactly onto the quadrilateral
        /// of its corners' images in `lattice` (row-major, anchors.count² points), or nil when a cell is
        /// degenerate.
        init?(anchors: [Double], lattice: [Point]) {
            let n = anchors.count
            guard n >= 2, lattice.count == n * n else { return nil }
            var cells: [PerspectiveTransform] = []
            cells.reserveCapacity((n - 1) * (n - 1))
            for j in 0..<(n - 1) {
                for i in 0..<(n - 1) {
                    let source = [Point(anchors[i], anchors[j]), Point(anchors[i + 1], anchors[j]),
                                  Point(anchors[i + 1], anchors[j + 1]), Point(anchors[i], anchors[j + 1])]
                    let destination = [lattice[j * n + i], lattice[j * n + i + 1], lattice[(j + 1) * n + i + 1], lattice[(j + 1) * n + i]]
                    guard let cell = PerspectiveTransform(from: source, to: destination) else { return nil }
                    cells.append(cell)
                }
            }
            self.anchors = anchors
            self.cells = cells
        }

        /// The cell (i, j) placing module coordinates (x, y); the outer cells extend beyond the anchors.
        @inline(__always)
        func cell(_ x: Double, _ y: Double) -> (Int, Int) {
            let n = anchors.count - 1
            var i = 0, j = 0
            while i < n - 1 && x >= anchors[i + 1] { i += 1 }
            while j < n - 1 && y >= anchors[j + 1] { j += 1 }
            return (i, j)
        }
    }

    init(dimension: Int, transform: PerspectiveTransform, tiles: Tiles? = nil) {
        self.init(width: dimension, height: dimension, transform: transform, tiles: tiles)
    }

    init(width: Int, height: Int, transform: PerspectiveTransform, tiles: Tiles? = nil) {
        self.width = width
        self.height = height
        self.transform = transform
        self.tiles = tiles
    }

    /// Modules per side of a square symbol.
    var dimension: Int { width }

    var isTiled: Bool { tiles != nil }

    /// The pixel position of module coordinates (x, y); module centres are at +0.5.
    @inline(__always)
    func pixel(_ x: Double, _ y: Double) -> Point {
        guard let tiles else { return transform.apply(Point(x, y)) }
        let (i, j) = tiles.cell(x, y)
        return tiles.cells[j * (tiles.anchors.count - 1) + i].apply(Point(x, y))
    }

    /// Calls `body` with k and the pixel position of module coordinates (x0 + k, y), for k in 0..<count in
    /// order: ``pixel(_:_:)`` of each, with the tile found once per row and then moved along, not searched
    /// for at every point (the samplers place every module of a symbol this way).
    @inline(__always)
    func forEachPixel(alongRow y: Double, from x0: Double, count: Int, _ body: (_ k: Int, _ pixel: Point) -> Void) {
        guard let tiles else {
            for k in 0..<count { body(k, transform.apply(Point(x0 + Double(k), y))) }
            return
        }
        let n = tiles.anchors.count - 1
        let (first, j) = tiles.cell(x0, y)
        var i = first
        for k in 0..<count {
            let x = x0 + Double(k)
            // The anchors rise along the row, so the cell is found by moving on from the last one.
            while i < n - 1 && x >= tiles.anchors[i + 1] { i += 1 }
            body(k, tiles.cells[j * n + i].apply(Point(x, y)))
        }
    }

    /// The one homography that places module coordinates (x, y), and the box of module coordinates where
    /// it is the one (unbounded on the sides of the outer cells, which extrapolate).
    func piece(at x: Double, _ y: Double) -> (transform: PerspectiveTransform, x: Range<Double>, y: Range<Double>) {
        let everywhere = -Double.infinity..<Double.infinity
        guard let tiles else { return (transform, everywhere, everywhere) }
        let n = tiles.anchors.count - 1
        let (i, j) = tiles.cell(x, y)
        func span(_ k: Int) -> Range<Double> {
            (k == 0 ? -Double.infinity : tiles.anchors[k])..<(k == n - 1 ? Double.infinity : tiles.anchors[k + 1])
        }
        return (tiles.cells[j * n + i], span(i), span(j))
    }

    /// The symbol's outer corners in the image: module (0,0), (w,0), (w,h), (0,h).
    var corners: Quadrilateral {
        let w = Double(width), h = Double(height)
        return Quadrilateral(topLeft: pixel(0, 0), topRight: pixel(w, 0), bottomRight: pixel(w, h), bottomLeft: pixel(0, h))
    }

    /// The approximate size of a module in pixels near the symbol's centre.
    var moduleSize: Double {
        let cx = Double(width) / 2, cy = Double(height) / 2
        return (pixel(cx + 0.5, cy).distance(to: pixel(cx - 0.5, cy)) + pixel(cx, cy + 0.5).distance(to: pixel(cx, cy - 0.5))) / 2
    }
}
