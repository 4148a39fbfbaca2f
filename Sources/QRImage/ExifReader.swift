/// Finds the Exif orientation in a JPEG's APP1 segment. Every read is bounds-checked; anything
/// malformed simply yields no orientation.
enum ExifReader {
    /// The orientation tag of the first Exif APP1 segment before the image data, if valid.
    static func orientation(inJPEG bytes: [UInt8]) -> ExifOrientation? {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var position = 2
        while position + 4 <= bytes.count {
            guard bytes[position] == 0xFF else { return nil }
            let marker = bytes[position + 1]
            if marker == 0xFF { position += 1; continue }  // fill byte
            // Start of scan or end of image: metadata segments all come before.
            if marker == 0xDA || marker == 0xD9 { return nil }
            // Markers without a length field.
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { position += 2; continue }
            let length = Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
            guard length >= 2, position + 2 + length <= bytes.count else { return nil }
            let segment = bytes[(position + 4)..<(position + 2 + length)]
            if marker == 0xE1, segment.starts(with: Array("Exif".utf8) + [0, 0]) {
                if let orientation = orientation(inTIFF: Array(segment.dropFirst(6))) { return orientation }
            }
            position += 2 + length
        }
        return nil
    }

    /// Tag 0x0112 of IFD0 of a TIFF structure, in either byte order.
    static func orientation(inTIFF tiff: [UInt8]) -> ExifOrientation? {
        guard tiff.count >= 8 else { return nil }
        let bigEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): bigEndian = false  // "II", Intel
        case (0x4D, 0x4D): bigEndian = true  // "MM", Motorola
        default: return nil
        }
        func uint16(_ offset: Int) -> Int? {
            guard offset >= 0, offset + 2 <= tiff.count else { return nil }
            let a = Int(tiff[offset]), b = Int(tiff[offset + 1])
            return bigEndian ? a << 8 | b : b << 8 | a
        }
        func uint32(_ offset: Int) -> Int? {
            guard let high = uint16(bigEndian ? offset : offset + 2), let low = uint16(bigEndian ? offset + 2 : offset)
            else { return nil }
            return high << 16 | low
        }
        guard uint16(2) == 42, let ifd = uint32(4), let count = uint16(ifd) else { return nil }
        for index in 0..<count {
            let entry = ifd + 2 + 12 * index
            guard let tag = uint16(entry), let type = uint16(entry + 2) else { return nil }
            guard tag == 0x0112 else { continue }
            // SHORT is standard; some writers use LONG. Either way the value sits in the entry itself.
            let value = type == 3 ? uint16(entry + 8) : type == 4 ? uint32(entry + 8) : nil
            return value.flatMap { ExifOrientation(rawValue: $0) }
        }
        return nil
    }
}
