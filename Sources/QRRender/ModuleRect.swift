/// A rectangle of whole modules in symbol coordinates (0, 0 = top-left module, quiet zone excluded).
public struct ModuleRect: Sendable, Hashable {
    /// Leftmost column, top row, and size in modules.
    public let x: Int
    public let y: Int
    public let width: Int
    public let height: Int

    /// A rectangle from its top-left module and size.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Whether module (column, row) lies inside.
    public func contains(x column: Int, y row: Int) -> Bool {
        column >= x && column < x + width && row >= y && row < y + height
    }

    /// The rectangle grown by `margin` modules on every side.
    func expanded(by margin: Int) -> ModuleRect {
        ModuleRect(x: x - margin, y: y - margin, width: width + 2 * margin, height: height + 2 * margin)
    }
}
