/// The low `count` bytes of `value`, least significant first, as GIF, BMP and "II" TIFF files store their fields.
public func littleEndian(_ value: Int, count: Int) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
}

/// The low `count` bytes of `value`, most significant first, as "MM" TIFF files store their fields.
public func bigEndian(_ value: Int, count: Int) -> [UInt8] {
    littleEndian(value, count: count).reversed()
}
