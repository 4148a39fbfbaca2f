import QRCore

/// Pixel positions at equal steps in module coordinates. Within one homography the numerators and the
/// denominator change by the same amounts at every step, so a position costs three additions and a
/// division instead of a full projection; the walk takes up the next homography where a piecewise
/// grid's cell ends.
struct GridLineWalk {
    private let grid: SamplingGrid
    private let step: Point
    /// The module coordinates of the next position.
    private(set) var module: Point
    private var cell: (x: Range<Double>, y: Range<Double>)
    private var x = 0.0, y = 0.0, w = 1.0
    private var dx = 0.0, dy = 0.0, dw = 0.0

    /// A walk from module coordinates `start` by `step` at every call of ``next()``.
    init(_ grid: SamplingGrid, from start: Point, step: Point) {
        self.grid = grid
        self.step = step
        module = start
        cell = (-Double.infinity..<Double.infinity, -Double.infinity..<Double.infinity)
        enterCell()
    }

    private mutating func enterCell() {
        let piece = grid.piece(at: module.x, module.y)
        let t = piece.transform
        cell = (piece.x, piece.y)
        x = t.a * module.x + t.b * module.y + t.c
        y = t.d * module.x + t.e * module.y + t.f
        w = t.g * module.x + t.h * module.y + t.i
        dx = t.a * step.x + t.b * step.y
        dy = t.d * step.x + t.e * step.y
        dw = t.g * step.x + t.h * step.y
    }

    /// The pixel position of the current module coordinates; then moves on one step.
    mutating func next() -> Point {
        if !cell.x.contains(module.x) || !cell.y.contains(module.y) { enterCell() }
        defer {
            x += dx; y += dy; w += dw
            module = module + step
        }
        let scale = 1 / w
        return Point(x * scale, y * scale)
    }
}
