/// Builds Y4M streams in tests, so that no ffmpeg is needed.
struct Y4MWriter {
    var width: Int
    var height: Int
    var header: String
    /// Bytes of the planes after luma in each frame, filled with a value no luma sample uses.
    var otherPlanesBytes: Int
    var bytesPerSample = 1

    /// A stream header for `width` × `height`, with `tags` after W and H (e.g. "F30:1 Cmono").
    init(width: Int, height: Int, tags: String = "F30:1 Ip A1:1 Cmono", otherPlanesBytes: Int = 0) {
        self.width = width
        self.height = height
        header = "YUV4MPEG2 W\(width) H\(height)" + (tags.isEmpty ? "" : " " + tags) + "\n"
        self.otherPlanesBytes = otherPlanesBytes
    }

    /// The whole stream: header, then each frame's `FRAME` line, luma and filler planes.
    func stream(_ frames: [[UInt8]], frameHeader: String = "FRAME") -> [UInt8] {
        var bytes = Array(header.utf8)
        for luma in frames {
            bytes += Array((frameHeader + "\n").utf8)
            bytes += luma
            bytes += [UInt8](repeating: 0xEE, count: otherPlanesBytes)
        }
        return bytes
    }
}

/// A recognisable 8-bit luma plane for frame `index`.
func lumaPattern(width: Int, height: Int, index: Int) -> [UInt8] {
    (0..<width * height).map { UInt8(truncatingIfNeeded: $0 * 7 + index * 31) & 0x7F }
}
