/// Netpbm writing.
public enum PNMEncoder {
    /// A binary PGM (P5) with maxval 255.
    public static func encodePGM(_ image: GrayImage) -> [UInt8] {
        Array("P5\n\(image.width) \(image.height)\n255\n".utf8) + image.pixels
    }
}
