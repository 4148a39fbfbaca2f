/// A rectangular grid of modules, dark (`true`) or light, stored one byte per module, row by row.
public struct BitMatrix: Hashable, Sendable {
    /// Modules per row.
    public let width: Int
    /// Rows.
    public let height: Int
    /// 1 = dark, 0 = light; index `y * width + x`.
    public var storage: [UInt8]

    /// An all-light matrix.
    public init(width: Int, height: Int) {
        precondition(width >= 0 && height >= 0, "negative matrix size")
        self.width = width
        self.height = height
        storage = [UInt8](repeating: 0, count: width * height)
    }

    /// An all-light square matrix.
    public init(size: Int) { self.init(width: size, height: size) }

    /// A matrix from rows of equal length.
    public init(rows: [[Bool]]) {
        self.init(width: rows.first?.count ?? 0, height: rows.count)
        for (y, row) in rows.enumerated() {
            precondition(row.count == width, "rows of different lengths")
            for (x, dark) in row.enumerated() where dark { storage[y * width + x] = 1 }
        }
    }

    /// Whether the module at column `x`, row `y` is dark.
    @inlinable
    public subscript(x: Int, y: Int) -> Bool {
        get { storage[y * width + x] != 0 }
        set { storage[y * width + x] = newValue ? 1 : 0 }
    }

    /// Whether (x, y) lies inside the matrix.
    @inlinable
    public func contains(x: Int, y: Int) -> Bool { x >= 0 && y >= 0 && x < width && y < height }

    /// Number of dark modules.
    public var darkCount: Int { storage.reduce(0) { $0 + Int($1) } }

    /// The matrix mirrored about its main diagonal (rows become columns).
    public func transposed() -> BitMatrix {
        var result = BitMatrix(width: height, height: width)
        for y in 0..<height {
            for x in 0..<width { result.storage[x * height + y] = storage[y * width + x] }
        }
        return result
    }

    /// Rows as strings of `1` (dark) and `0` (light).
    public var rowStrings: [String] {
        (0..<height).map { y in
            String(decoding: storage[y * width..<(y + 1) * width].map { $0 != 0 ? UInt8(ascii: "1") : UInt8(ascii: "0") },
                   as: UTF8.self)
        }
    }
}
