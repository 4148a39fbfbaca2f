import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import QRCore
import QREncoder
import QRImage
import QRRender

/// The value of attribute `name` of the first element `element` in `svg`.
private func attribute(_ name: String, of element: String, in svg: String) -> String? {
    guard let start = svg.range(of: "<\(element) ") ?? svg.range(of: "<\(element)\n"),
          let end = svg[start.upperBound...].range(of: ">") else { return nil }
    let tag = svg[start.upperBound..<end.lowerBound]
    guard let key = tag.range(of: " \(name)=\"") ?? (tag.hasPrefix("\(name)=\"") ? tag.range(of: "\(name)=\"") : nil),
          let close = tag[key.upperBound...].firstIndex(of: "\"") else { return nil }
    return String(tag[key.upperBound..<close])
}

/// Rasterises path data made of "M x,y h n v1 h -n z" rectangles into a module matrix.
private func rasterise(_ path: String, side: Int) throws -> BitMatrix {
    var matrix = BitMatrix(size: side)
    let pattern = try Regex(#"M(\d+),(\d+)h(\d+)v1h-(\d+)z"#)
    var covered = 0
    for match in path.matches(of: pattern) {
        let numbers = (1...4).compactMap { match.output[$0].substring.flatMap { Int($0) } }
        try #require(numbers.count == 4 && numbers[2] == numbers[3])
        for x in numbers[0]..<(numbers[0] + numbers[2]) {
            #expect(!matrix[x, numbers[1]], "module (\(x), \(numbers[1])) drawn twice")
            matrix[x, numbers[1]] = true
        }
        covered += match.range.upperBound.utf16Offset(in: path) - match.range.lowerBound.utf16Offset(in: path)
    }
    #expect(covered == path.utf16.count, "the path holds only rectangles")
    return matrix
}

private func isWellFormedXML(_ text: String) -> Bool {
    XMLParser(data: Data(text.utf8)).parse()
}

@Suite("SVG rendering")
struct SVGRendererTests {
    @Test(arguments: [1, 3, 10])
    func pathCoversExactlyTheDarkModules(version: Int) throws {
        let code = try makeCode(version: version)
        let svg = try SVGRenderer.svg(for: code, style: RenderStyle(sizing: .moduleSize(5), quietZone: 3))
        let side = code.size + 6
        #expect(isWellFormedXML(svg))
        #expect(attribute("viewBox", of: "svg", in: svg) == "0 0 \(side) \(side)")
        #expect(attribute("width", of: "svg", in: svg) == "\(side * 5)")
        #expect(attribute("height", of: "svg", in: svg) == "\(side * 5)")
        #expect(attribute("shape-rendering", of: "svg", in: svg) == "crispEdges")
        #expect(attribute("fill", of: "rect", in: svg) == "#FFFFFF")
        #expect(attribute("fill", of: "path", in: svg) == "#000000")
        #expect(svg.components(separatedBy: "<path").count == 2)  // a single path
        let path = try #require(attribute("d", of: "path", in: svg))
        let drawn = try rasterise(path, side: side)
        var expected = BitMatrix(size: side)
        for y in 0..<code.size { for x in 0..<code.size where code[x, y] { expected[x + 3, y + 3] = true } }
        #expect(drawn == expected)
    }

    @Test func translucentColoursUseFillOpacityAndTransparentBackgroundsNoRect() throws {
        let style = RenderStyle(foreground: Color(red: 0x11, green: 0x22, blue: 0x33, alpha: 0x80), background: .transparent)
        let svg = try SVGRenderer.svg(for: try makeCode(), style: style)
        #expect(isWellFormedXML(svg))
        #expect(!svg.contains("<rect"))
        #expect(attribute("fill", of: "path", in: svg) == "#112233")
        #expect(attribute("fill-opacity", of: "path", in: svg) == "0.502")
    }

    @Test func titleIsEscaped() throws {
        let svg = try SVGRenderer.svg(for: try makeCode(), style: RenderStyle(), title: #"<b>"Tom" & 'Jerry'</b>\#u{1}"#)
        #expect(isWellFormedXML(svg))
        #expect(svg.contains("<title>&lt;b&gt;&quot;Tom&quot; &amp; &apos;Jerry&apos;&lt;/b&gt;\u{FFFD}</title>"))
    }

    @Test func logoIsEmbeddedAsPNGWithItsPaddingRect() throws {
        let code = try makeCode(version: 5, level: .high)
        let logo = try Logo(image: makeLogo(width: 400, height: 400), areaShare: 0.12)
        let style = RenderStyle(sizing: .moduleSize(4), logo: logo)
        let svg = try SVGRenderer.svg(for: code, style: style)
        #expect(isWellFormedXML(svg))
        let placement = try LogoPlacement.validate(code: code, logo: logo)
        #expect(svg.contains(##"<rect x="16" y="16" width="13" height="13" fill="#FFFFFF"/>"##))
        #expect(attribute("x", of: "image", in: svg) == "17" && attribute("width", of: "image", in: svg) == "11")
        let href = try #require(attribute("xlink:href", of: "image", in: svg))
        #expect(href.hasPrefix("data:image/png;base64,"))
        let png = try #require(Data(base64Encoded: String(href.dropFirst("data:image/png;base64,".count))))
        let embedded = try ImageDecoder().decodeRGBA([UInt8](png)).image
        // Twice the 44 px the box takes in the output, not the 400 px original.
        #expect(embedded.width == 88 && embedded.height == 88)
        // The path leaves out every module under the logo and its padding.
        let path = try #require(attribute("d", of: "path", in: svg))
        let drawn = try rasterise(path, side: code.size + 8)
        var expected = BitMatrix(size: code.size + 8)
        for y in 0..<code.size {
            for x in 0..<code.size where code[x, y] && !placement.coveredArea.contains(x: x, y: y) {
                expected[x + 4, y + 4] = true
            }
        }
        #expect(drawn == expected)
    }
}
