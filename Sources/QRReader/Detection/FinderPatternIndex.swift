import QRCore

/// The finder patterns a scan has found so far, filed by place: each new hit is checked against the patterns
/// it could be (the same pattern on another scan line), and a search through all of them made the scan
/// quadratic in their number. A picture tiled with finder-like squares holds tens of thousands.
///
/// Each pattern is filed in the cells of a coarse grid that its reach covers: four modules around its
/// centre, as far as another reading of it can lie (``FinderPatternFinder`` merges readings within two
/// module sizes of either, of module sizes within 2:1, and a probe within half the pattern's size). A
/// lookup near a point reads the one cell under it, or those within a radius around it. Up to
/// ``linearLimit`` patterns, as most pictures hold, are searched in turn instead: filing them cost more
/// than it saved (a tenth of a small picture's decode).
struct FinderPatternIndex {
    private(set) var patterns: [FinderPattern] = []
    /// Pattern indices per cell, row-major; empty while the patterns are searched in turn.
    private var cells: [[Int]] = []
    private let columns: Int, rows: Int
    private static let cellSize = 32.0
    private static let linearLimit = 32

    init(width: Int, height: Int) {
        columns = max(1, Int((Double(width) / Self.cellSize).rounded(.up)))
        rows = max(1, Int((Double(height) / Self.cellSize).rounded(.up)))
    }

    /// The first pattern (in the order added) for which `matches` holds, among those whose reach covers
    /// `point` or whose centre lies within `radius` of it (and maybe others).
    func firstIndex(near point: Point, within radius: Double = 0, where matches: (FinderPattern) -> Bool) -> Int? {
        guard !cells.isEmpty else { return patterns.firstIndex(where: matches) }
        var first: Int?
        for row in Self.clamped(point.y - radius, count: rows)...Self.clamped(point.y + radius, count: rows) {
            for column in Self.clamped(point.x - radius, count: columns)...Self.clamped(point.x + radius, count: columns) {
                for index in cells[row * columns + column] where index < (first ?? .max) && matches(patterns[index]) {
                    first = index
                }
            }
        }
        return first
    }

    /// Whether `matches` holds for any pattern whose reach covers `point` or whose centre lies within `radius` of it.
    func contains(near point: Point, within radius: Double = 0, where matches: (FinderPattern) -> Bool) -> Bool {
        firstIndex(near: point, within: radius, where: matches) != nil
    }

    mutating func append(_ pattern: FinderPattern) {
        patterns.append(pattern)
        if !cells.isEmpty {
            file(patterns.count - 1)
        } else if patterns.count > Self.linearLimit {
            cells = Array(repeating: [], count: columns * rows)
            for index in patterns.indices { file(index) }
        }
    }

    /// Replaces the pattern at `index` (a reading averaged in), filing it where its new reach covers too.
    mutating func update(_ pattern: FinderPattern, at index: Int) {
        patterns[index] = pattern
        if !cells.isEmpty { file(index) }
    }

    private mutating func file(_ index: Int) {
        let pattern = patterns[index]
        let reach = 4 * pattern.moduleSize
        let x0 = Self.clamped(pattern.center.x - reach, count: columns), x1 = Self.clamped(pattern.center.x + reach, count: columns)
        let y0 = Self.clamped(pattern.center.y - reach, count: rows), y1 = Self.clamped(pattern.center.y + reach, count: rows)
        for row in y0...y1 {
            for column in x0...x1 where !cells[row * columns + column].contains(index) {
                cells[row * columns + column].append(index)
            }
        }
    }

    /// The cell along one axis holding coordinate `value`, the edge cells extending beyond the picture.
    private static func clamped(_ value: Double, count: Int) -> Int {
        guard value.isFinite else { return 0 }
        // Clamped before the conversion, which traps beyond Int's range.
        return Int(min(Double(count - 1), max(0, (value / cellSize).rounded(.down))))
    }
}
