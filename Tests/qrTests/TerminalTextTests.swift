import Testing
@testable import qr

@Suite("Payloads shown in a terminal")
struct TerminalTextTests {
    @Test func escapeSequencesAndBidirectionalControlsAreShownEscaped() {
        #expect(TerminalText.safe("a\u{1B}[2Jb") == "a\\u{1B}[2Jb")
        #expect(TerminalText.safe("line\nnext\ttab") == "line\\nnext\\ttab")
        #expect(TerminalText.safe("\u{9B}31m") == "\\u{9B}31m")
        // A right-to-left override would show "https://evil.example/moc.knab" as ending in "bank.com".
        #expect(TerminalText.safe("https://evil.example/\u{202E}moc.knab") == "https://evil.example/\\u{202E}moc.knab")
        #expect(TerminalText.safe("\u{2066}x\u{2069}\u{200F}") == "\\u{2066}x\\u{2069}\\u{200F}")
        // Text in any script, emoji and joiners stay as they are.
        #expect(TerminalText.safe("二维码 שלום 👩‍💻") == "二维码 שלום 👩‍💻")
    }
}
