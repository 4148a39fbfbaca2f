import Foundation
import Testing
import QRCore
import QREncoder
import QRRender

@Suite("Terminal, text matrix and JSON output")
struct TextRendererTests {
    /// Strips ANSI escape sequences.
    private func plain(_ text: String) -> String {
        text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    }

    /// Decodes half-block lines back into rows of "ink" flags.
    private func inkRows(_ text: String) -> [[Bool]] {
        var rows: [[Bool]] = []
        for line in plain(text).split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            rows.append(line.map { $0 == "█" || $0 == "▀" })
            rows.append(line.map { $0 == "█" || $0 == "▄" })
        }
        return rows
    }

    @Test func terminalOutputHasTwoModuleRowsPerLine() throws {
        let code = try makeCode()
        let text = try TerminalRenderer.render(code, quietZone: 4, ansiColors: false)
        let lines = text.split(separator: "\n")
        #expect(lines.count == 15)  // 29 module rows → 15 lines, the last one half empty
        #expect(lines.allSatisfy { $0.count == 29 })
        #expect(!text.contains("\u{1B}"))
        #expect(Set(text).isSubset(of: [" ", "▀", "▄", "█", "\n"]))
        let rows = inkRows(text)
        for y in 0..<29 {
            for x in 0..<29 { #expect(rows[y][x] == code[x - 4, y - 4]) }
        }
        #expect(rows[29].allSatisfy { !$0 })
    }

    @Test func invertSwapsInkAndColoursAreExplicit() throws {
        let code = try makeCode()
        let normal = inkRows(try TerminalRenderer.render(code, quietZone: 2, ansiColors: false))
        let inverted = inkRows(try TerminalRenderer.render(code, quietZone: 2, invert: true, ansiColors: false))
        for y in 0..<25 {
            for x in 0..<25 { #expect(normal[y][x] != inverted[y][x]) }
        }
        let colored = try TerminalRenderer.render(code, quietZone: 2)
        let lines = colored.split(separator: "\n")
        #expect(lines.count == 13)
        #expect(lines.allSatisfy { $0.hasPrefix("\u{1B}[38;5;16;48;5;231m") && $0.hasSuffix("\u{1B}[0m") })
        #expect(inkRows(colored) == normal)
    }

    @Test func matrixTextIsRowsOfOnesAndZerosWithTheQuietZone() throws {
        let code = try makeCode(version: 2)
        let text = try MatrixTextRenderer.render(code, quietZone: 4)
        #expect(text.hasSuffix("\n"))
        let rows = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(rows.count == 33)
        #expect(rows.allSatisfy { $0.count == 33 && $0.allSatisfy { $0 == "0" || $0 == "1" } })
        #expect(rows.prefix(4).allSatisfy { !$0.contains("1") })
        let inner = rows.dropFirst(4).prefix(25).map { String($0.dropFirst(4).prefix(25)) }
        #expect(inner == code.modules.rowStrings)
        #expect(try MatrixTextRenderer.render(code, quietZone: 0) == code.modules.rowStrings.joined(separator: "\n") + "\n")
        #expect(throws: RenderError.self) { try MatrixTextRenderer.render(code, quietZone: -1) }
    }

    @Test func jsonDescribesTheSymbol() throws {
        let segments = [
            try Segment.numeric("0123"), try Segment.alphanumeric("HELLO WORLD"), Segment.bytes(Array("héllo \"x\"\n".utf8)),
            Segment.bytes([0xFF, 0x00]), try Segment.eci(3), Segment.bytes([0xE9]), try Segment.kanji("漢字"),
        ]
        let code = try makeCode(version: 2, level: .quartile, segments: segments)
        let json = try JSONRenderer.render(code, quietZone: 4)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["version"] as? Int == 2)
        #expect(object["level"] as? String == "Q")
        #expect(object["mask"] as? Int == 3)
        #expect(object["size"] as? Int == 25)
        #expect(object["quiet_zone"] as? Int == 4)
        #expect(object["matrix"] as? [String] == code.modules.rowStrings)
        #expect(object["structured_append"] == nil)
        let list = try #require(object["segments"] as? [[String: Any]])
        #expect(list.count == 7)
        #expect(list.map { $0["mode"] as? String } == ["numeric", "alphanumeric", "byte", "byte", "eci", "byte", "kanji"])
        #expect(list.map { $0["char_count"] as? Int } == [4, 11, 11, 2, 3, 1, 2])
        #expect(list[0]["text"] as? String == "0123")
        #expect(list[1]["text"] as? String == "HELLO WORLD")
        #expect(list[2]["text"] as? String == "héllo \"x\"\n")
        #expect(list[3]["data_hex"] as? String == "ff00" && list[3]["text"] == nil)
        #expect(list[4].count == 2)
        #expect(list[5]["text"] as? String == "é")  // ISO-8859-1 after ECI 3
        #expect(list[6]["text"] as? String == "漢字")
    }

    @Test func jsonIncludesStructuredAppend() throws {
        let code = try makeCode(structuredAppend: StructuredAppendInfo(index: 1, count: 3, parity: 0x5A))
        let json = try JSONRenderer.render(code, quietZone: 2)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let sequence = try #require(object["structured_append"] as? [String: Int])
        #expect(sequence == ["index": 1, "count": 3, "parity": 0x5A])
        #expect(object["segments"] as? [Any] != nil)
    }
}
