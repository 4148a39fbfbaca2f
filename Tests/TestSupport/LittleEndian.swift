/// The low `count` bytes of `value`, least significant first, as GIF and BMP store their fields.
public func littleEndian(_ value: Int, count: Int) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
}
