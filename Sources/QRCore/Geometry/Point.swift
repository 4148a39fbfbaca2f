/// A point in pixel or view coordinates (x to the right, y down unless stated otherwise).
public struct Point: Hashable, Sendable, Codable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    @inlinable
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    @inlinable
    public init(_ x: Double, _ y: Double) { self.init(x: x, y: y) }

    public static let zero = Point(0, 0)

    @inlinable
    public static func + (a: Point, b: Point) -> Point { Point(a.x + b.x, a.y + b.y) }
    @inlinable
    public static func - (a: Point, b: Point) -> Point { Point(a.x - b.x, a.y - b.y) }
    @inlinable
    public static func * (a: Point, s: Double) -> Point { Point(a.x * s, a.y * s) }
    @inlinable
    public static func / (a: Point, s: Double) -> Point { Point(a.x / s, a.y / s) }

    /// Euclidean distance to `other`.
    @inlinable
    public func distance(to other: Point) -> Double { ((x - other.x) * (x - other.x) + (y - other.y) * (y - other.y)).squareRoot() }

    /// The z component of the cross product of `self` and `other` as vectors.
    @inlinable
    public func cross(_ other: Point) -> Double { x * other.y - y * other.x }

    /// The dot product of `self` and `other` as vectors.
    @inlinable
    public func dot(_ other: Point) -> Double { x * other.x + y * other.y }

    /// Length of the vector.
    @inlinable
    public var length: Double { (x * x + y * y).squareRoot() }

    /// The vector scaled to length 1 (the zero vector stays zero).
    @inlinable
    public var normalized: Point { length > 0 ? self / length : self }

    public var description: String { "(\(x), \(y))" }
}

/// A width and height.
public struct Size: Hashable, Sendable, Codable {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}
