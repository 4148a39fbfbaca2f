import QRCore
import Testing
@testable import QREncoder

@Suite struct EncoderBehaviourTests {
    @Test func smallestVersionAndBoost() throws {
        let code = try QRCode.encode("HELLO WORLD", options: EncodingOptions(errorCorrectionLevel: .medium))
        #expect(code.version.number == 1)
        #expect(code.errorCorrectionLevel == .medium)
        let boosted = try QRCode.encode("HELLO WORLD", options: EncodingOptions(errorCorrectionLevel: .low, boostErrorCorrection: true))
        #expect(boosted.version.number == 1)
        #expect(boosted.errorCorrectionLevel == .quartile)  // 11 alphanumerics fit 1-Q but not 1-H
    }

    @Test func versionRangeAndForcedMask() throws {
        let code = try QRCode.encode("hi", options: EncodingOptions(versions: 5...8, mask: 6))
        #expect(code.version.number == 5)
        #expect(code.mask.rawValue == 6)
        #expect(code.size == 37)
    }

    @Test func dataTooLongSaysWhatFits() {
        let text = String(repeating: "x", count: 3000)
        #expect(throws: EncoderError.self) { try QRCode.encode(text, options: EncodingOptions(errorCorrectionLevel: .high)) }
        do {
            _ = try QRCode.encode(text, options: EncodingOptions(errorCorrectionLevel: .high))
        } catch {
            #expect(error.description.contains("version 40 at level H"))
            #expect(error.description.contains("1273 bytes"))
            #expect(error.description.contains("--split"))
        }
    }

    @Test func forcedVersionTooSmall() {
        #expect {
            try QRCode.encode(String(repeating: "a", count: 40), options: .version(1))
        } throws: { error in
            guard case let EncoderError.dataTooLong(_, capacity, version, _) = error else { return false }
            return capacity == 128 && version.number == 1
        }
    }

    @Test func invalidOptionsAreTypedErrors() {
        #expect(throws: EncoderError.invalidMask(8)) { try QRCode.encode("a", options: EncodingOptions(mask: 8)) }
        #expect(throws: EncoderError.invalidVersion("0-3")) { try QRCode.encode("a", options: EncodingOptions(versions: 0...3)) }
        #expect(throws: EncoderError.invalidECI(14)) { try QRCode.encode("a", options: EncodingOptions(eci: 14)) }
        #expect(throws: EncoderError.charsetConflict(eci: 26, charset: .shiftJIS)) {
            try QRCode.encode("a", options: EncodingOptions(charset: .shiftJIS, eci: 26))
        }
    }

    @Test func charsetThatCannotCarryTheTextIsAnError() {
        // The seed article's trap: Latin-1 cannot carry Chinese; here that is an error, never a missing code.
        #expect(throws: EncoderError.unencodableCharacter("二", charset: .isoLatin1)) {
            try QRCode.encode("二维码", options: EncodingOptions(charset: .isoLatin1))
        }
    }

    @Test func invalidKanji() {
        #expect(throws: EncoderError.invalidCharacter("A", mode: .kanji)) { try Segment.kanji("漢A") }
        #expect(throws: EncoderError.self) { try Segment.kanji(shiftJIS: [0x41, 0x42]) }
        #expect(throws: EncoderError.self) { try Segment.kanji(shiftJIS: [0x93]) }
        #expect(throws: EncoderError.invalidCharacter("a", mode: .numeric)) { try Segment.numeric("12a") }
        #expect(throws: EncoderError.invalidCharacter("a", mode: .alphanumeric)) { try Segment.alphanumeric("Aa") }
    }

    @Test func rawBytes() throws {
        let bytes: [UInt8] = [0x00, 0xFF, 0x80, 0x7F]
        let code = try QRCode.encode(bytes: bytes)
        #expect(code.segments == [Segment.bytes(bytes)])
    }

    @Test func eciSegmentLengths() throws {
        #expect(try Segment.eci(127).dataBitCount == 8)
        #expect(try Segment.eci(128).dataBitCount == 16)
        #expect(try Segment.eci(16384).dataBitCount == 24)
        #expect(throws: EncoderError.invalidECI(1_000_000)) { try Segment.eci(1_000_000) }
    }
}

@Suite struct StructuredAppendTests {
    private func joinedPayload(_ codes: [QRCode]) -> [UInt8] {
        codes.flatMap { $0.segments.filter { $0.mode != .eci }.flatMap(\.payload) }
    }

    @Test func splitsIntoTheRequestedNumberOfBalancedSymbols() throws {
        let text = String(repeating: "The quick brown fox jumps over the lazy dog. ", count: 20)
        let codes = try QRCode.encodeStructuredAppend(text, count: 4)
        #expect(codes.count == 4)
        #expect(Set(codes.map(\.version)).count == 1)
        #expect(joinedPayload(codes) == Array(text.utf8))
        let parity = Array(text.utf8).reduce(0, ^)
        for (i, code) in codes.enumerated() {
            #expect(code.structuredAppend == StructuredAppendInfo(index: i, count: 4, parity: parity))
        }
        let sizes = codes.map { $0.segments.reduce(0) { $0 + $1.payload.count } }
        #expect((sizes.max() ?? 0) - (sizes.min() ?? 0) <= 8)
    }

    @Test func automaticCountUsesAsFewAsNeeded() throws {
        #expect(try QRCode.encodeStructuredAppend("short").count == 1)
        let long = String(repeating: "x", count: 5000)
        let codes = try QRCode.encodeStructuredAppend(long, options: EncodingOptions(errorCorrectionLevel: .low))
        #expect(codes.count == 2)
        #expect(joinedPayload(codes) == Array(long.utf8))
    }

    @Test func headerBitsAreWrittenFirst() throws {
        let codes = try QRCode.encodeStructuredAppend("ABCDEFGH", count: 2)
        let data = SymbolBuilder.dataCodewords(codes[1].segments, header: codes[1].structuredAppend,
                                               version: codes[1].version, level: codes[1].errorCorrectionLevel)
        // 0011 | index 0001 | count-1 0001 | parity …
        #expect(data[0] == 0b0011_0001)
        #expect(data[1] >> 4 == 0b0001)
    }

    @Test func impossibleSplitsAreErrors() {
        #expect(throws: EncoderError.self) { try QRCode.encodeStructuredAppend("abc", count: 5) }
        #expect(throws: EncoderError.self) { try QRCode.encodeStructuredAppend("abc", count: 17) }
        #expect(throws: EncoderError.self) {
            try QRCode.encodeStructuredAppend(String(repeating: "x", count: 50_000), options: .version(10))
        }
    }
}
