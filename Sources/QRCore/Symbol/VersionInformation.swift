/// The 18-bit version information of versions 7 and up (ISO/IEC 18004 §7.10).
public enum VersionInformation {
    /// The 18-bit codeword for `version`.
    public static func codeword(for version: Version) -> Int { BCHCode.qrVersion.encode(version.number) }

    /// Decodes an 18-bit read-out (up to 3 bit errors are corrected) to a version 7…40.
    public static func decode(_ bits: Int) -> (version: Version, distance: Int)? {
        guard let (number, distance) = BCHCode.qrVersion.decode(bits, candidates: 7...40, maximumDistance: 3),
              let version = Version(number)
        else { return nil }
        return (version, distance)
    }

    /// Positions (x, y) of bits 0…17 in the two copies: above the bottom-left finder and left of the
    /// top-right finder.
    public static func positions(size: Int) -> [[(x: Int, y: Int)]] {
        let topRight = (0..<18).map { i in (x: size - 11 + i % 3, y: i / 3) }
        let bottomLeft = (0..<18).map { i in (x: i / 3, y: size - 11 + i % 3) }
        return [topRight, bottomLeft]
    }
}
