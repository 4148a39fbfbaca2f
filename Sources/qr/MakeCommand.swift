import ArgumentParser
import Foundation
import QRKit

/// `qr make`: encode text or bytes and write the symbol as PNG, SVG, terminal art, a 1/0 matrix or JSON.
struct MakeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "make",
        abstract: "Make a QR code.",
        discussion: """
            The data is the TEXT argument, a text file (--text-file), raw bytes (--bytes-file) or explicit \
            segments (--segments-json). Text is encoded in the fewest bits (numeric, alphanumeric and byte \
            segments mixed as needed); non-ASCII text goes into byte mode as UTF-8 without ECI.

            Without -o the code is printed to the terminal. The output format follows the file extension \
            (.png, .svg, .txt, .json) unless --format says otherwise.

            Examples:
              qr make "https://example.com" -o code.png
              qr make "WIFI:T:WPA;S:home;P:secret;;" --level H --size 600 -o wifi.png
              qr make "二维码" --foreground "#8B0000" -o red.svg
              qr make --text-file notes.txt --split 4 -o notes.png      # notes-1.png … notes-4.png
              qr make "Café" --logo logo.png -o cafe.png                  # level H, logo checked by decoding
              echo -n 12345 | qr make - --format matrix --quiet-zone 0
            """)

    @Argument(help: "The text to encode; - reads standard input.")
    var text: String?

    @Option(name: .long, help: "Read the text (UTF-8) from a file.")
    var textFile: String?

    @Option(name: .long, help: "Encode the raw bytes of a file (- for standard input) in byte mode.")
    var bytesFile: String?

    @Option(name: .long, help: ArgumentHelp(
        "Encode explicit segments from a JSON list (numeric, alphanumeric, byte, kanji, eci).",
        discussion: #"Each segment is an object: {"mode":"numeric","text":"0123"}, {"mode":"alphanumeric","text":"AB-1"}, {"mode":"byte","data_hex":"c3a9"}, {"mode":"kanji","text":"漢字"} or {"mode":"kanji","sjis_hex":"8abf8e9a"}, {"mode":"eci","assignment":26}."#))
    var segmentsJson: String?

    @Option(name: .long, help: "Error-correction level: L (7 %), M (15 %, default), Q (25 %) or H (30 %).")
    var level: LevelArgument?

    @Option(name: .long, help: "Version 1…40, or a range such as 5-10 (default: the smallest that fits).")
    var version: VersionRangeArgument?

    @Option(name: .long, help: "Data mask 0…7 (default: chosen by the standard's penalty rules).")
    var mask: Int?

    @Flag(name: .long, help: "Raise the error-correction level while the data still fits the same version.")
    var boost = false

    @Option(name: .long, help: "Write an ECI designator with this assignment number (26 = UTF-8, 3 = ISO-8859-1, 20 = Shift_JIS).")
    var eci: Int?

    @Option(name: .long, help: "Charset for byte segments: UTF-8 (default), ISO-8859-1, Shift_JIS, …")
    var charset: String?

    @Flag(name: .long, help: "Use kanji mode for Shift_JIS double-byte characters.")
    var kanji = false

    @Option(name: .long, help: "Pixels per module (default 8).")
    var moduleSize: Int?

    @Option(name: .long, help: "Target image size in pixels: the largest whole module size that fits.")
    var size: Int?

    @Option(name: .long, help: "Light modules around the symbol (default 4).")
    var quietZone: Int = 4

    @Option(name: .long, help: "Colour of dark modules: #RRGGBB[AA] or a name (default black).")
    var foreground: String = "black"

    @Option(name: .long, help: "Colour of light modules (default white).")
    var background: String = "white"

    @Option(name: .long, help: "A logo image (PNG, JPEG, GIF, BMP, TIFF, PGM/PPM) for the centre; implies level H unless --level is given.")
    var logo: String?

    @Option(name: .long, help: "Share of the symbol's area for the logo, in percent (default: the largest up to 20 that the level can correct).")
    var logoShare: Double?

    @Option(name: .long, help: "Split over N linked symbols (Structured Append, 2…16), or 'auto' for as few as needed.")
    var split: SplitArgument?

    @Option(name: .long, help: "png, svg, terminal, text, matrix or json.")
    var format: OutputFormat?

    @Flag(name: .long, help: "Terminal and text output: swap dark and light (for plain text on dark backgrounds).")
    var invert = false

    @Option(name: .shortAndLong, help: "Output file (written atomically); - for standard output. With --split, NAME.png becomes NAME-1.png, NAME-2.png, …")
    var output: String?

    /// The file to write, nil for standard output.
    private var outputFile: String? { output == "-" ? nil : output }

    func validate() throws {
        let sources = [text != nil, textFile != nil, bytesFile != nil, segmentsJson != nil].filter { $0 }.count
        if sources == 0 { throw ValidationError("Give the text to encode, or --text-file, --bytes-file or --segments-json.") }
        if sources > 1 { throw ValidationError("Give only one of TEXT, --text-file, --bytes-file and --segments-json.") }
        if moduleSize != nil && size != nil { throw ValidationError("Give --module-size or --size, not both.") }
        if split != nil && segmentsJson != nil { throw ValidationError("--split works with text or bytes, not explicit segments.") }
        if let logoShare, !(0 < logoShare && logoShare <= 50) { throw ValidationError("--logo-share must be above 0 and at most 50 (percent).") }
        if logoShare != nil && logo == nil { throw ValidationError("--logo-share sizes a logo: give it with --logo.") }
        if !(0...RenderStyle.maximumQuietZone).contains(quietZone) {
            throw ValidationError("--quiet-zone must be 0…\(RenderStyle.maximumQuietZone) modules.")
        }
    }

    func run() throws {
        let options = try encodingOptions()
        let codes = try encode(options: options)
        if let warning = Self.charsetWarning(options, codes) { printError("warning: \(warning)") }
        let outputFormat = try resolvedFormat()
        let style = try renderStyle()
        // Colours and quiet zone matter for pictures, not for the matrix or JSON.
        if ![.matrix, .json].contains(outputFormat) {
            for warning in style.warnings { printError("warning: \(warning)") }
        }

        for (index, code) in codes.enumerated() {
            var codeStyle = style
            if let logo {
                codeStyle.logo = try fittedLogo(for: code, path: logo)
            }
            let rendered = try render(code, format: outputFormat, style: codeStyle)
            if codeStyle.logo != nil { try verifyByDecoding(code, style: codeStyle) }
            let target = outputFile.map { codes.count > 1 ? Self.numbered($0, index + 1) : $0 }
            if let target {
                try ImageFile.writeAtomically(rendered, to: target)
            } else {
                if codes.count > 1 { print("Symbol \(index + 1) of \(codes.count):") }
                FileHandle.standardOutput.write(Data(rendered))
            }
        }
        if let output = outputFile, codes.count > 1 {
            printError("wrote \(codes.count) linked symbols: \(Self.numbered(output, 1)) … \(Self.numbered(output, codes.count))")
        }
    }

    // MARK: Encoding

    private func encodingOptions() throws -> EncodingOptions {
        var options = EncodingOptions()
        // A logo hides modules: level H unless the user chose a level.
        options.errorCorrectionLevel = level?.level ?? (logo != nil ? .high : .medium)
        if let version { options.versions = version.range }
        options.mask = mask
        options.boostErrorCorrection = boost
        options.eci = eci
        options.kanji = kanji
        if let charset {
            guard let named = Charset.named(charset) else { throw EncoderError.unknownCharset(charset) }
            options.charset = named
        }
        return options
    }

    /// Readers without an ECI take byte data for UTF-8, ISO-8859-1 or Shift_JIS (zxing-cpp and QRKit guess
    /// among those): text beyond ASCII in another charset needs its ECI to read back as written.
    private static func charsetWarning(_ options: EncodingOptions, _ codes: [QRCode]) -> String? {
        guard let charset = options.charset, options.eci == nil, ![.utf8, .isoLatin1, .ascii, .shiftJIS].contains(charset),
              codes.contains(where: { $0.segments.contains { $0.mode == .byte && $0.payload.contains { $0 >= 0x80 } } })
        else { return nil }
        let advice = charset.eciAssignment.map { "add --eci \($0) so that they read \(charset.name)" } ?? "use UTF-8"
        return "without an ECI, readers take byte data for UTF-8, ISO-8859-1 or Shift_JIS: \(advice)."
    }

    private func encode(options: EncodingOptions) throws -> [QRCode] {
        if let segmentsJson {
            return [try QRCode.encode(segments: SegmentsFile.read(segmentsJson), options: options)]
        }
        if let bytesFile {
            let bytes = try InputFile.bytes(bytesFile)
            if let split { return try QRCode.encodeStructuredAppend(bytes: bytes, count: split.count, options: options) }
            return [try QRCode.encode(bytes: bytes, options: options)]
        }
        let content: String
        if let textFile {
            content = try InputFile.text(textFile)
        } else if text == "-" {
            content = try InputFile.text("-")
        } else {
            content = text ?? ""
        }
        if let split { return try QRCode.encodeStructuredAppend(content, count: split.count, options: options) }
        return [try QRCode.encode(content, options: options)]
    }

    // MARK: Rendering

    private func resolvedFormat() throws -> OutputFormat {
        if let format { return format }
        guard let output = outputFile else { return isTerminal(STDOUT_FILENO) ? .terminal : .text }
        guard let byExtension = OutputFormat(fileExtension: (output as NSString).pathExtension) else {
            throw ValidationError("Cannot tell the format from \(output): add --format png|svg|terminal|text|matrix|json.")
        }
        return byExtension
    }

    private func renderStyle() throws -> RenderStyle {
        let sizing: RenderStyle.Sizing = size.map { .targetSize($0) } ?? .moduleSize(moduleSize ?? 8)
        return RenderStyle(sizing: sizing, quietZone: quietZone, foreground: try Color(parsing: foreground),
                           background: try Color(parsing: background))
    }

    private func fittedLogo(for code: QRCode, path: String) throws -> Logo {
        let image = try ImageDecoder().decodeRGBA(contentsOf: path).image
        if let logoShare {
            let logo = try Logo(image: image, areaShare: logoShare / 100)
            _ = try LogoPlacement.validate(code: code, logo: logo)
            return logo
        }
        return try LogoPlacement.largestFitting(code: code, image: image).logo
    }

    private func render(_ code: QRCode, format: OutputFormat, style: RenderStyle) throws -> [UInt8] {
        switch format {
        case .png:
            if outputFile == nil && isTerminal(STDOUT_FILENO) {
                throw ValidationError("Refusing to write PNG data to a terminal: use -o FILE or redirect the output.")
            }
            return try RasterRenderer.png(for: code, style: style)
        case .svg:
            return Array(try SVGRenderer.svg(for: code, style: style).utf8)
        case .terminal:
            return Array(try TerminalRenderer.render(code, quietZone: quietZone, invert: invert).utf8)
        case .text:
            return Array(try TerminalRenderer.render(code, quietZone: quietZone, invert: invert, ansiColors: false).utf8)
        case .matrix:
            return Array(Self.lineTerminated(try MatrixTextRenderer.render(code, quietZone: quietZone)).utf8)
        case .json:
            return Array(Self.lineTerminated(try JSONRenderer.render(code, quietZone: quietZone)).utf8)
        }
    }

    /// A logo relies on error correction: make sure the rendered symbol still reads.
    private func verifyByDecoding(_ code: QRCode, style: RenderStyle) throws {
        var check = style
        check.sizing = .moduleSize(4)
        let image = try RasterRenderer.image(for: code, style: check)
        let expected = code.segments.filter { $0.mode != .eci }.flatMap(\.payload)
        let decoded = QRCodeReader().read(GrayImage(image)).map(\.bytes)
        guard decoded.contains(expected) || code.structuredAppend != nil && !decoded.isEmpty else {
            throw ValidationError("The code with this logo does not decode: use a smaller --logo-share or level H.")
        }
    }

    private static func lineTerminated(_ text: String) -> String { text.hasSuffix("\n") ? text : text + "\n" }

    static func numbered(_ path: String, _ index: Int) -> String {
        let ns = path as NSString
        let ext = ns.pathExtension
        let stem = ext.isEmpty ? path : ns.deletingPathExtension
        return ext.isEmpty ? "\(stem)-\(index)" : "\(stem)-\(index).\(ext)"
    }
}
