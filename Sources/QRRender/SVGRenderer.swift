import QREncoder
import QRImage

/// Renders symbols as SVG: one `<path>` for all dark modules on an exact module grid.
///
/// The viewBox is in modules (quiet zone included) and the width and height attributes give the pixel
/// size from the style, so the drawing scales without resampling; `shape-rendering="crispEdges"` keeps
/// viewers from anti-aliasing module edges. Horizontal runs of dark modules become one rectangle each.
public enum SVGRenderer {
    /// The SVG document. `title`, if given, becomes an accessible `<title>` (escaped).
    public static func svg(for code: QRCode, style: RenderStyle, title: String? = nil) throws(RenderError) -> String {
        let layout = try SymbolLayout(code: code, style: style)
        let side = layout.modulesPerSide
        var svg = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        svg += #"<svg xmlns="http://www.w3.org/2000/svg""#
        if layout.logo != nil { svg += #" xmlns:xlink="http://www.w3.org/1999/xlink""# }
        svg += #" version="1.1" width="\#(layout.pixelsPerSide)" height="\#(layout.pixelsPerSide)""#
        svg += #" viewBox="0 0 \#(side) \#(side)" shape-rendering="crispEdges">"# + "\n"
        if let title { svg += "<title>\(escaped(title))</title>\n" }
        if style.background.alpha > 0 {
            svg += #"<rect width="\#(side)" height="\#(side)"\#(fill(style.background))/>"# + "\n"
        }
        let path = pathData(layout)
        if !path.isEmpty, style.foreground.alpha > 0 {
            svg += #"<path\#(fill(style.foreground)) d="\#(path)"/>"# + "\n"
        }
        if let (logo, placement) = layout.logo {
            let covered = placement.coveredArea, box = placement.logoArea
            let q = layout.quietZone
            if style.background.alpha > 0 {
                // The padding ring: the background rectangle already shows there, but drawing it keeps
                // the ring when the document is restyled or the background removed.
                svg += #"<rect x="\#(covered.x + q)" y="\#(covered.y + q)" width="\#(covered.width)""#
                    + #" height="\#(covered.height)"\#(fill(style.background))/>"# + "\n"
            }
            let png = try embeddedPNG(logo.image, box: layout.pixelRect(of: box))
            svg += #"<image x="\#(box.x + q)" y="\#(box.y + q)" width="\#(box.width)" height="\#(box.height)""#
                + #" preserveAspectRatio="xMidYMid meet" xlink:href="data:image/png;base64,\#(png)"/>"# + "\n"
        }
        svg += "</svg>\n"
        return svg
    }

    /// `fill` (and `fill-opacity` for translucent colours) attributes.
    private static func fill(_ color: Color) -> String {
        var text = #" fill="\#(color.opaqueHex)""#
        if color.alpha < 255 {
            let opacity = (Double(color.alpha) / 255 * 1000).rounded() / 1000
            text += #" fill-opacity="\#(opacity)""#
        }
        return text
    }

    /// "M x,y h n v1 h -n z" for every horizontal run of dark modules.
    private static func pathData(_ layout: SymbolLayout) -> String {
        var path = ""
        for row in 0..<layout.modulesPerSide {
            var column = 0
            while column < layout.modulesPerSide {
                guard layout.isDark(column: column, row: row) else { column += 1; continue }
                let start = column
                while column < layout.modulesPerSide, layout.isDark(column: column, row: row) { column += 1 }
                let length = column - start
                path += "M\(start),\(row)h\(length)v1h-\(length)z"
            }
        }
        return path
    }

    /// The logo as base64 PNG, no larger than twice the pixels it occupies in the output (sharp on
    /// high-density screens without bloating the document).
    private static func embeddedPNG(_ image: RGBAImage, box: (x: Int, y: Int, width: Int, height: Int))
        throws(RenderError) -> String {
        try RasterRenderer.imageOperation { () throws(ImageError) -> String in
            let scale = Swift.min(1, Swift.min(Double(2 * box.width) / Double(image.width),
                                               Double(2 * box.height) / Double(image.height)))
            let width = Swift.max(1, Int((Double(image.width) * scale).rounded()))
            let height = Swift.max(1, Int((Double(image.height) * scale).rounded()))
            let scaled = try image.resized(width: width, height: height)
            return Base64.encode(try RasterRenderer.compactPNG(scaled))
        }
    }

    /// Text safe inside XML elements and attributes.
    private static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            // XML 1.0 forbids most control characters even as references; show them as U+FFFD.
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            default: result.unicodeScalars.append(scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF
                ? "\u{FFFD}" : scalar)
            }
        }
        return result
    }
}
