import Testing
import QRRender

@Suite("Colours and contrast")
struct ColorTests {
    @Test func parsesHexForms() throws {
        #expect(try Color(parsing: "#F00") == Color(red: 255, green: 0, blue: 0))
        #expect(try Color(parsing: "#f008") == Color(red: 255, green: 0, blue: 0, alpha: 0x88))
        #expect(try Color(parsing: "#8b0000") == Color(red: 0x8B, green: 0, blue: 0))
        #expect(try Color(parsing: "#FF3B30") == .markRed)
        #expect(try Color(parsing: "#11223380") == Color(red: 0x11, green: 0x22, blue: 0x33, alpha: 0x80))
        #expect(try Color(parsing: " FF3B30 ") == .markRed)  // shells eat an unquoted "#"
        #expect(try Color(parsing: "11223380").alpha == 0x80)
    }

    @Test func parsesNames() throws {
        let basic = ["black", "silver", "gray", "white", "maroon", "red", "purple", "fuchsia", "green", "lime",
                     "olive", "yellow", "navy", "blue", "teal", "aqua", "orange", "transparent"]
        for name in basic { #expect((try? Color(parsing: name)) != nil, "\(name)") }
        #expect(try Color(parsing: "Navy") == Color(red: 0, green: 0, blue: 0x80))
        #expect(try Color(parsing: "ORANGE") == Color(red: 0xFF, green: 0xA5, blue: 0))
        #expect(try Color(parsing: "transparent") == .transparent)
        #expect(try Color(parsing: "systemred") == .markRed)
    }

    @Test func badInputGetsAHelpfulMessage() {
        for text in ["#GG0000", "#12345", "bluish", "", "#", "123", "rgb(1,2,3)"] {
            #expect(throws: RenderError.self) { try Color(parsing: text) }
        }
        do throws(RenderError) {
            _ = try Color(parsing: "bluish")
        } catch {
            #expect(error.description.contains("“bluish”"))
            #expect(error.description.contains("#RRGGBB"))
            #expect(error.description.contains("navy"))
        }
    }

    @Test func hexTextRoundTrips() throws {
        #expect(Color.markRed.hex == "#FF3B30")
        #expect(Color(red: 1, green: 2, blue: 3, alpha: 4).hex == "#01020304")
        for color in [Color.black, .white, .transparent, .markRed, Color(red: 9, green: 200, blue: 77, alpha: 128)] {
            #expect(try Color(parsing: color.hex) == color)
        }
    }

    @Test func contrastRatiosFollowWCAG() {
        #expect(abs(Color.black.contrastRatio(with: .white) - 21) < 1e-9)
        #expect(Color.white.contrastRatio(with: .white) == 1)
        let gray = Color(red: 0x77, green: 0x77, blue: 0x77)
        #expect(abs(gray.contrastRatio(with: .white) - 4.48) < 0.01)
        #expect(abs(Color.white.contrastRatio(with: gray) - gray.contrastRatio(with: .white)) < 1e-12)
        #expect(Color(red: 0x8B, green: 0, blue: 0).contrastRatio(with: .white) > 10)
    }
}
