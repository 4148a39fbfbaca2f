import QRCore
import QRTestSupport
import Testing
@testable import QREncoder

@Suite struct SegmentationTests {
    let v1 = Version.min
    let v10 = Version(10)!

    private func bits(_ text: String, version: Version, kanji: Bool = false) throws -> Int {
        let optimizer = try SegmentOptimizer(text: text, charset: .utf8, kanji: kanji)
        return Segment.totalBits(optimizer.segments(version: version), version: version) ?? .max
    }

    /// Exhaustive minimum over every assignment of a mode to each character, merging equal neighbours.
    private func bruteForceBits(_ text: String, version: Version) -> Int {
        let chars = Array(text.unicodeScalars)
        let modes: [SegmentMode] = [.numeric, .alphanumeric, .byte]
        func allowed(_ c: Unicode.Scalar, _ mode: SegmentMode) -> Bool {
            switch mode {
            case .numeric: return ("0"..."9").contains(c)
            case .alphanumeric: return c.isASCII && AlphanumericCharset.value(of: UInt8(c.value)) != nil
            default: return true
            }
        }
        var best = Int.max
        var assignment = [Int](repeating: 0, count: chars.count)
        func visit(_ i: Int) {
            if i == chars.count {
                // Every split point between equal modes is also tried, as separate segments.
                var total = 0
                var start = 0
                while start < chars.count {
                    var end = start + 1
                    while end < chars.count && assignment[end] == assignment[start] { end += 1 }
                    let text = String(String.UnicodeScalarView(chars[start..<end]))
                    let segment: Segment? = switch modes[assignment[start]] {
                    case .numeric: try? .numeric(text)
                    case .alphanumeric: try? .alphanumeric(text)
                    default: .bytes(Array(text.utf8))
                    }
                    guard let bits = segment?.bitCount(version: version) else { return }
                    total += bits
                    start = end
                }
                best = min(best, total)
                return
            }
            for m in modes.indices where allowed(chars[i], modes[m]) {
                assignment[i] = m
                visit(i + 1)
            }
        }
        visit(0)
        return best
    }

    // Exhaustive search is exponential: inputs stay under ten characters.
    @Test(arguments: ["123456", "HELLO W", "hello", "ab1234567", "A1B2C3", "01AB9999", "T:+8131",
                      "Ö 1234567", "x", "12AB", "AB12345"])
    func optimalAgainstExhaustiveSearch(_ text: String) throws {
        for version in [v1, v10] {
            #expect(try bits(text, version: version) == bruteForceBits(text, version: version), "\(text) at v\(version)")
        }
    }

    @Test func randomMixedInputIsOptimal() throws {
        var rng = SeededGenerator(seed: 42)
        let alphabet = Array("0123456789ABCXYZ abc$%é")
        for _ in 0..<25 {
            let text = String((0..<Int.random(in: 1...7, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! })
            #expect(try bits(text, version: v1) == bruteForceBits(text, version: v1), "\(text)")
        }
    }

    @Test func mixedInputBeatsSingleSegment() throws {
        // A long run of digits inside a URL is cheaper in numeric mode.
        let text = "https://example.com/track/12345678901234567890123456789"
        let single = Segment.bytes(Array(text.utf8)).bitCount(version: v1)!
        let optimal = try bits(text, version: v1)
        #expect(optimal < single)
        let code = try QRCode.encode(text)
        #expect(code.segments.map(\.mode) == [.byte, .numeric])
    }

    @Test func equalBitCountsPreferFewerSegments() throws {
        // Three digits cost 24 bits as bytes and 4 + 10 + 10 as a numeric segment: a tie, so one segment.
        #expect(try QRCode.encode("abc123").segments.map(\.mode) == [.byte])
        // A fourth digit tips it: 28 bits numeric against 32 as bytes.
        #expect(try QRCode.encode("abc1234").segments.map(\.mode) == [.byte, .numeric])
    }

    @Test func plainTextPolicy() throws {
        #expect(try QRCode.encode("0123456789").segments.map(\.mode) == [.numeric])
        #expect(try QRCode.encode("HELLO WORLD").segments.map(\.mode) == [.alphanumeric])
        let chinese = try QRCode.encode("二维码")
        #expect(chinese.segments.map(\.mode) == [.byte])
        #expect(chinese.segments[0].payload == Array("二维码".utf8), "UTF-8 bytes, no ECI")
        #expect(try QRCode.encode("").segments.isEmpty)
    }

    @Test func kanjiOnlyWhenAsked() throws {
        let text = "漢字テキスト"
        #expect(try QRCode.encode(text).segments.map(\.mode) == [.byte])
        let kanji = try QRCode.encode(text, options: EncodingOptions(kanji: true))
        #expect(kanji.segments.map(\.mode) == [.kanji])
        #expect(kanji.segments[0].characterCount == 6)
        let mixed = try QRCode.encode("ID 12345678 漢字", options: EncodingOptions(kanji: true))
        #expect(mixed.segments.map(\.mode).contains(.kanji))
        #expect(try bits("ID 12345678 漢字", version: v1, kanji: true) < bits("ID 12345678 漢字", version: v1))
    }

    @Test func eciAndCharsets() throws {
        let utf8 = try QRCode.encode("Grüße", options: EncodingOptions(eci: 26))
        #expect(utf8.segments.first?.mode == .eci)
        #expect(utf8.segments.first?.characterCount == 26)
        let latin1 = try QRCode.encode("Grüße", options: EncodingOptions(eci: 3))
        #expect(latin1.segments.last?.payload == [0x47, 0x72, 0xFC, 0xDF, 0x65])
        let sjis = try QRCode.encode("日本", options: EncodingOptions(charset: .shiftJIS))
        #expect(sjis.segments.map(\.mode) == [.byte])
        #expect(sjis.segments[0].payload == [0x93, 0xFA, 0x96, 0x7B])
    }

    @Test func segmentsLongerThanTheirCountIndicatorAreSplit() throws {
        let optimizer = SegmentOptimizer(bytes: [UInt8](repeating: 0x41, count: 300))
        let segments = optimizer.segments(version: v1)
        #expect(segments.map(\.characterCount) == [255, 45])
    }
}
