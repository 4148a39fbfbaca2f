import Testing
import QRRender

@Suite("Render style: sizes and warnings")
struct RenderStyleTests {
    @Test func targetSizePicksTheLargestWholeModuleSize() throws {
        // Version 1 (21 modules) with a quiet zone of 4: 29 modules per side.
        #expect(try RenderStyle(sizing: .targetSize(232)).moduleSize(forSymbolSize: 21) == 8)
        #expect(try RenderStyle(sizing: .targetSize(231)).moduleSize(forSymbolSize: 21) == 7)
        #expect(try RenderStyle(sizing: .targetSize(29)).moduleSize(forSymbolSize: 21) == 1)
        #expect(try RenderStyle(sizing: .targetSize(25), quietZone: 2).moduleSize(forSymbolSize: 21) == 1)
        #expect(throws: RenderError.targetSizeTooSmall(target: 28, minimum: 29)) {
            try RenderStyle(sizing: .targetSize(28)).moduleSize(forSymbolSize: 21)
        }
        #expect(RenderError.targetSizeTooSmall(target: 28, minimum: 29).description.contains("at least 29 px"))
        #expect(try RenderStyle().moduleSize(forSymbolSize: 21) == 8)
    }

    @Test func invalidValuesAreRefused() {
        #expect(throws: RenderError.self) { try RenderStyle(sizing: .moduleSize(0)).moduleSize(forSymbolSize: 21) }
        #expect(throws: RenderError.self) { try RenderStyle(quietZone: -1).moduleSize(forSymbolSize: 21) }
        #expect(throws: RenderError.self) { try RenderStyle(quietZone: 1001).moduleSize(forSymbolSize: 21) }
        #expect(throws: RenderError.self) { try RenderStyle(sizing: .targetSize(-5)).moduleSize(forSymbolSize: 21) }
    }

    @Test func defaultStyleHasNoWarnings() {
        #expect(RenderStyle().warnings.isEmpty)
        #expect(RenderStyle(foreground: Color(red: 0x8B, green: 0, blue: 0)).warnings.isEmpty)
    }

    @Test func warningsExplainScanRisks() throws {
        let yellow = RenderStyle(foreground: try Color(parsing: "yellow"))
        #expect(yellow.warnings.count == 1)
        guard case let .lowContrast(ratio)? = yellow.warnings.first else {
            Issue.record("expected a contrast warning")
            return
        }
        #expect(ratio < 1.1)
        #expect(yellow.warnings[0].description.contains("may not scan"))

        let inverted = RenderStyle(foreground: .white, background: .black)
        #expect(inverted.warnings == [.inverted])
        #expect(inverted.warnings[0].description.contains("inverted"))

        let clear = RenderStyle(background: .transparent)
        #expect(clear.warnings == [.transparentBackground(alpha: 0)])
        #expect(clear.warnings[0].description.contains("transparent"))

        #expect(RenderStyle(quietZone: 1).warnings == [.narrowQuietZone(1)])
        let faint = RenderStyle(foreground: Color(red: 0, green: 0, blue: 0, alpha: 40))
        #expect(faint.warnings.count == 1)
    }
}
