import Foundation
import QRCore
import Testing
@testable import QREncoder

/// One case of Fixtures/reference-matrices.jsonl (made once by Scripts/make_reference_fixture.py from
/// Nayuki's qrcodegen 1.8.0 and segno 1.6.6).
struct ReferenceCase: Decodable, CustomTestStringConvertible, Sendable {
    struct SegmentSpec: Decodable, Sendable {
        let mode: String
        let text: String?
        let data_hex: String?
        let sjis_hex: String?
        let assignment: Int?
    }

    let id: String
    let category: String
    let segments: [SegmentSpec]
    let ecc: String
    let version: Int?
    let mask: Int?
    let boost: Bool
    let expected_version: Int
    let expected_ecc: String
    let expected_mask: Int
    let size: Int
    let matrix_base64: String

    var testDescription: String { id }

    static let all: [ReferenceCase] = {
        guard let url = Bundle.module.url(forResource: "reference-matrices", withExtension: "jsonl", subdirectory: "Fixtures"),
              let text = try? String(contentsOf: url, encoding: .utf8)
        else { return [] }
        return text.split(separator: "\n").compactMap { try? JSONDecoder().decode(ReferenceCase.self, from: Data($0.utf8)) }
    }()

    func makeSegments() throws -> [Segment] {
        try segments.map { spec in
            switch spec.mode {
            case "numeric": return try Segment.numeric(spec.text ?? "")
            case "alphanumeric": return try Segment.alphanumeric(spec.text ?? "")
            case "byte": return Segment.bytes(hexBytes(spec.data_hex ?? ""))
            case "kanji": return try Segment.kanji(shiftJIS: hexBytes(spec.sjis_hex ?? ""))
            case "eci": return try Segment.eci(spec.assignment ?? -1)
            default: throw FixtureError.unknownMode(spec.mode)
            }
        }
    }

    var expectedRows: [String] {
        let bytes = Data(base64Encoded: matrix_base64).map(Array.init) ?? []
        return (0..<size).map { y in
            String((0..<size).map { x in
                let bit = y * size + x
                return bytes[bit / 8] & (0x80 >> UInt8(bit % 8)) != 0 ? "1" : "0"
            })
        }
    }
}

enum FixtureError: Error { case unknownMode(String) }

func hexBytes(_ hex: String) -> [UInt8] {
    var result: [UInt8] = []
    var iterator = hex.utf8.makeIterator()
    while let high = iterator.next(), let low = iterator.next() {
        result.append(UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) ?? 0)
    }
    return result
}

@Suite("Bit-exact matrices against qrcodegen / segno")
struct ReferenceMatrixTests {
    @Test func fixtureCoversEverything() {
        let cases = ReferenceCase.all
        #expect(cases.count == 367)
        #expect(Set(cases.map(\.expected_version)) == Set(1...40))
        #expect(Set(cases.filter { $0.mask != nil }.map(\.mask)) == Set(0...7))
        for level in ["L", "M", "Q", "H"] {
            #expect(Set(cases.filter { $0.ecc == level && $0.category == "version_sweep" }.map(\.expected_version)) == Set(1...40))
        }
        let modes = Set(cases.flatMap { $0.segments.map(\.mode) })
        #expect(modes == ["numeric", "alphanumeric", "byte", "kanji", "eci"])
    }

    @Test(arguments: ReferenceCase.all)
    func matrixMatches(_ reference: ReferenceCase) throws {
        let options = EncodingOptions(
            errorCorrectionLevel: try #require(ErrorCorrectionLevel(reference.ecc)),
            versions: reference.version.map { $0...$0 } ?? 1...40,
            mask: reference.mask, boostErrorCorrection: reference.boost)
        let code = try QRCode.encode(segments: reference.makeSegments(), options: options)
        #expect(code.version.number == reference.expected_version)
        #expect(code.errorCorrectionLevel.letter == reference.expected_ecc)
        #expect(code.mask.rawValue == reference.expected_mask)
        let rows = code.modules.rowStrings
        let expected = reference.expectedRows
        if rows != expected, let y = rows.indices.first(where: { rows[$0] != expected[$0] }) {
            let x = zip(rows[y], expected[y]).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? -1
            Issue.record("first differing module at row \(y), column \(x)")
        }
    }
}
