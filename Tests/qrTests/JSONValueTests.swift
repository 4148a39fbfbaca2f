import Foundation
import Testing
@testable import qr

@Suite("JSON output") struct JSONValueTests {
    @Test func keysInByteOrderAndNumbersAsJSONWritesThem() {
        let value: JSONValue = ["b": 1, "a_b": [true, false, .null], "a": 2.5, "c": .double(3), "d": .double(.infinity)]
        #expect(value.text == #"{"a":2.5,"a_b":[true,false,null],"b":1,"c":3,"d":null}"#)
    }

    @Test func decodedTextIsEscapedOnlyWhereJSONRequires() throws {
        // Payloads are untrusted: quotes, backslashes and control characters must not end the string or the line.
        let payload = "say \"hi\"\\ http://a/b\n\r\t\u{0}\u{1f} 二维码 🙂"
        let line = JSONValue.object(["text": .string(payload)]).text
        #expect(!line.contains("\n") && !line.contains("\r"))
        #expect(line.contains("http://a/b") && line.contains("二维码"))
        #expect(line.contains(#"\u0000"#) && line.contains(#"\u001f"#))
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(parsed["text"] as? String == payload)
    }

    @Test func doublesReadBackExactly() throws {
        let values = [0.1, 43.500088673844104, -1e-7, 1e300, 123_456_789.25]
        let text = JSONValue.array(values.map(JSONValue.double)).text
        // Foundation's JSON parser on Linux rounds some doubles itself, so each number is read back on its own.
        #expect(text.first == "[" && text.last == "]")
        let parsed = text.dropFirst().dropLast().split(separator: ",").map { Double(String($0)) }
        #expect(parsed == values)
    }
}
