import ArgumentParser
import Foundation
import QRKit

/// `qr mark`: the photo with every code outlined and numbered, as the seed apps show several codes.
struct MarkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mark",
        abstract: "Outline and number every QR code in a photo.",
        discussion: """
            Each code is outlined in #FF3B30 (3 px, thicker on large photos) and numbered in reading order; \
            the numbered texts are printed. The output keeps the photo's displayed orientation (EXIF applied).
            Exit status: 0 when a code was found, 1 when none was, 2 on errors.

            Examples:
              qr mark photo.jpg -o marked.png
              qr mark payment-codes.jpg -o marked.jpg
              qr mark fax.tif --page 2 -o page2.png     # a page of a multi-page TIFF
            """)

    @Argument(help: "The photo (PNG, JPEG, GIF, BMP, TIFF, PGM/PPM); - reads standard input.")
    var image: String

    @Option(name: .shortAndLong, help: "Where to write the marked photo (.png or .jpg).")
    var output: String

    @Option(name: .long, help: "fast or thorough (default).")
    var accuracy: ReaderOptions.Accuracy = .thorough

    @OptionGroup var pageOption: PageOption

    func run() throws {
        do {
            let scan = try PhotoScan(path: image, page: pageOption.page, options: ReaderOptions(accuracy: accuracy))
            var marked = scan.photo
            for (index, code) in scan.codes.enumerated() { marked.markDetection(code.corners, label: "\(index + 1)") }
            let format = (output as NSString).pathExtension.lowercased()
            guard ["jpg", "jpeg", "png"].contains(format) else {
                throw CommandFailure(message: "Write the marked photo as .png or .jpg, not \(output).", status: 2)
            }
            // A photo that cannot be encoded or written is an error (2), not a photo without codes (1).
            do {
                let bytes = format == "png" ? try PNGEncoder.encode(marked) : try JPEGEncoder.encode(marked, quality: 90)
                try ImageFile.writeAtomically(bytes, to: output)
            } catch {
                throw CommandFailure(message: "Error: \(error)", status: 2)
            }
            if scan.codes.isEmpty {
                printError(scan.noCodeMessage(path: image))
                throw ExitCode(1)
            }
            print(scan.numberedList())
        } catch let failure as CommandFailure {
            printError(failure.message)
            throw ExitCode(failure.status)
        }
    }
}
