/// Standard base64 (RFC 4648, with padding), for PNG data: URIs.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i < bytes.count {
            let b0 = Int(bytes[i])
            let b1 = i + 1 < bytes.count ? Int(bytes[i + 1]) : 0
            let b2 = i + 2 < bytes.count ? Int(bytes[i + 2]) : 0
            let group = b0 << 16 | b1 << 8 | b2
            output.append(alphabet[group >> 18 & 63])
            output.append(alphabet[group >> 12 & 63])
            output.append(i + 1 < bytes.count ? alphabet[group >> 6 & 63] : UInt8(ascii: "="))
            output.append(i + 2 < bytes.count ? alphabet[group & 63] : UInt8(ascii: "="))
            i += 3
        }
        return String(decoding: output, as: UTF8.self)
    }
}
