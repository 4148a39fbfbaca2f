import ArgumentParser
import QRKit

/// A photo as the user sees it (EXIF orientation applied) with the codes found in it in reading order,
/// their corners in that displayed frame: what `qr mark` draws on and what `qr pick --at` points at. Of a
/// multi-page TIFF, one page.
struct PhotoScan {
    let photo: RGBAImage
    let codes: [ReadResult]
    /// The page read (from 1) and how many the file has.
    let page: Int
    let pageCount: Int

    /// Reads page `page` (from 1) of the file at `path` (`-`: standard input); a page the file does not have
    /// is an error (status 2) that says which pages it has.
    init(path: String, page: Int = 1, options: ReaderOptions) throws {
        let decoder = ImageDecoder()
        let decoded: DecodedImage<RGBAImage>
        var count = 1
        do {
            let bytes = try ImageList.bytes(of: path, maxBytes: decoder.limits.maxFileSize)
            let pages = try decoder.pages(bytes)
            count = pages.count
            guard page <= count else {
                let pages = count == 1 ? "one page; --page must be 1" : "\(count) pages; --page must be 1…\(count)"
                throw CommandFailure(message: "\(path) has \(pages).", status: 2)
            }
            decoded = try pages.decodeRGBA(page: page - 1)
        } catch let error as ImageError {
            throw CommandFailure(message: "\(count > 1 ? "\(path), page \(page)" : path): \(error)", status: 2)
        }
        (self.page, pageCount) = (page, count)
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

    /// The message for a photo without codes, naming the page of a multi-page file and saying how to read another.
    func noCodeMessage(path: String) -> String {
        pageCount > 1 ? "No QR code found on page \(page) of \(path) (\(pageCount) pages; choose another with --page N)."
            : "No QR code found in \(path)."
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
