import Testing
@testable import QRCore

@Suite struct CharsetTests {
    @Test func eciAssignments() {
        #expect(Charset.forECI(26) == .utf8)
        #expect(Charset.forECI(3) == .isoLatin1)
        #expect(Charset.forECI(1) == .isoLatin1)
        #expect(Charset.forECI(20) == .shiftJIS)
        #expect(Charset.forECI(4)?.name == "ISO-8859-2")
        #expect(Charset.forECI(15)?.name == "ISO-8859-13")
        #expect(Charset.forECI(14) == nil)
        #expect(Charset.forECI(28) == .big5)
        #expect(Charset.forECI(9999) == nil)
    }

    @Test func namesAndAliases() {
        #expect(Charset.named("utf8") == .utf8)
        #expect(Charset.named("SHIFT_JIS") == .shiftJIS)
        #expect(Charset.named("latin-1") == .isoLatin1)
        #expect(Charset.named("klingon") == nil)
    }

    @Test func roundTripsThroughLegacyCharsets() {
        let samples: [(Charset, String)] = [
            (.shiftJIS, "日本語テキスト ABC\\~"), (.gb18030, "二维码 支付宝"), (.big5, "繁體中文"),
            (.eucKR, "한국어"), (.isoLatin1, "Grüße"), (.utf16BE, "Ωμέγα"),
        ]
        for (charset, text) in samples {
            let bytes = charset.encode(text)
            #expect(bytes != nil, "\(charset) encodes \(text)")
            #expect(bytes.flatMap(charset.decode) == text, "\(charset) round trip")
        }
    }

    @Test func refusesWhatACharsetCannotCarry() {
        #expect(Charset.isoLatin1.encode("二维码") == nil)  // the seed article's trap
        #expect(Charset.ascii.encode("é") == nil)
        #expect(Charset.utf8.decode([0xFF, 0xFE]) == nil)
        #expect(Charset.shiftJIS.decode([0x82]) == nil)  // truncated double-byte character
    }

    @Test func shiftJISKeepsASCIIInTheLowHalf() {
        #expect(Charset.shiftJIS.decode([0x5C, 0x7E]) == "\\~")
    }
}
