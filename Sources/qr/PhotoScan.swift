import ArgumentParser
import Foundation
import QRKit

/// A photo as the user sees it (EXIF orientation applied) with the codes found in it in reading order,
/// their corners in that displayed frame: what `qr mark` draws on and what `qr pick --at` points at.
struct PhotoScan {
    let photo: RGBAImage
    let codes: [ReadResult]

    init(path: String, options: ReaderOptions) throws {
        let decoder = ImageDecoder()
        let decoded: DecodedImage<RGBAImage>
        do {
            decoded = path == "-" ? try decoder.decodeRGBA(Array(FileHandle.standardInput.readDataToEndOfFile()))
                : try decoder.decodeRGBA(contentsOf: path)
        } catch {
            throw CommandFailure(message: "\(path): \(error)", status: 2)
        }
        let stored = decoded.image
        let codes = QRCodeReader(options: options).read(stored)
        let orientation = decoded.orientation
        let displayed = codes.map { code in
            var moved = code
            moved.corners = code.corners.map {
                orientation.displayPoint(fromStored: $0, storedWidth: stored.width, storedHeight: stored.height)
            }
            return moved
        }
        self.codes = ReadingOrder.sorted(displayed, corners: \.corners)
        photo = orientation.apply(to: stored)
    }

    /// "1. text" lines, texts with control characters shown escaped so a payload cannot drive the terminal.
    func numberedList() -> String {
        codes.enumerated().map { "\($0.offset + 1). \(TerminalText.safe($0.element.text))" }.joined(separator: "\n")
    }
}

/// An error that ends the command with a message and a specific exit status.
struct CommandFailure: Error, CustomStringConvertible {
    let message: String
    let status: Int32
    var description: String { message }
}

/// Decoded payloads are data: before they are shown in a terminal, escape sequences must be defused.
enum TerminalText {
    /// `text` with control characters written as escapes: C0 and C1 controls (a terminal's escape
    /// sequences), and the bidirectional overrides, embeddings and isolates, which make a terminal show
    /// text in another order than it is (a link's host reversed into something else).
    static func safe(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A: result += "\\n"
            case 0x0D: result += "\\r"
            case 0x09: result += "\\t"
            case 0x00..<0x20, 0x7F..<0xA0, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
                result += String(format: "\\u{%X}", scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
