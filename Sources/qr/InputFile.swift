import ArgumentParser
import Foundation
import QRKit

/// Reading the data to encode, with errors a user understands.
enum InputFile {
    /// Largest input accepted: far more than any QR code (or 16 linked ones) can hold.
    static let maximumBytes = 1 << 20

    static func bytes(_ path: String) throws -> [UInt8] {
        if path == "-" {
            let data = FileHandle.standardInput.readData(ofLength: maximumBytes + 1)
            guard data.count <= maximumBytes else { throw ValidationError("Standard input holds more than 1 MiB.") }
            return Array(data)
        }
        do {
            return try ImageFile.read(path, maxBytes: maximumBytes)
        } catch {
            throw ValidationError("\(error)")
        }
    }

    static func text(_ path: String) throws -> String {
        let data = try bytes(path)
        guard let text = String(validating: data, as: UTF8.self) else {
            throw ValidationError("\(path == "-" ? "Standard input" : path) is not UTF-8 text; use --bytes-file to encode raw bytes.")
        }
        return text
    }
}

/// The images a command reads: those named on the command line, then those listed in `--list`.
enum ImageList {
    /// Largest list file read: a million paths of 64 bytes.
    static let maximumBytes = 64 << 20

    /// The paths to read. `list` may be `-` (standard input), a pipe or a file; one that cannot be read is
    /// an error (exit status 2), reported here.
    static func paths(_ images: [String], list: String?) throws -> [String] {
        guard let list else { return images }
        let text: String
        do {
            let bytes = try bytes(of: list, maxBytes: maximumBytes)
            guard let decoded = String(validating: bytes, as: UTF8.self) else {
                throw CommandFailure(message: "The list file \(list) is not UTF-8 text.", status: 2)
            }
            text = decoded
        } catch {
            printError("Error: \(error)")
            throw ExitCode(2)
        }
        return images + text.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.isEmpty }
    }

    /// The bytes of the file at `path`, `-` being standard input, read as a file is: at most `maxBytes`.
    static func bytes(of path: String, maxBytes: Int) throws(ImageError) -> [UInt8] {
        try ImageFile.read(path == "-" ? "/dev/stdin" : path, maxBytes: maxBytes)
    }

    /// Standard input can carry the list or an image, not both.
    static func validate(_ images: [String], list: String?) throws {
        if list == "-" && images.contains("-") {
            throw ValidationError("Standard input can hold the --list or an image (-), not both.")
        }
    }
}

/// The `--segments-json` format: the `segments` list of the reference vectors.
enum SegmentsFile {
    private struct Entry: Decodable {
        let mode: String
        let text: String?
        let data_hex: String?
        let sjis_hex: String?
        let assignment: Int?
    }

    static func read(_ path: String) throws -> [Segment] {
        let data = Data(try InputFile.bytes(path))
        let entries: [Entry]
        do {
            entries = try JSONDecoder().decode([Entry].self, from: data)
        } catch {
            throw ValidationError("\(path) is not a JSON list of segments: \(error.localizedDescription)")
        }
        return try entries.map { entry in
            switch entry.mode {
            case "numeric": return try Segment.numeric(try required(entry.text, "text", entry.mode))
            case "alphanumeric": return try Segment.alphanumeric(try required(entry.text, "text", entry.mode))
            case "byte": return Segment.bytes(try hex(try required(entry.data_hex, "data_hex", entry.mode)))
            case "kanji":
                if let sjis = entry.sjis_hex { return try Segment.kanji(shiftJIS: try hex(sjis)) }
                return try Segment.kanji(try required(entry.text, "text or sjis_hex", entry.mode))
            case "eci": return try Segment.eci(try required(entry.assignment, "assignment", entry.mode))
            default: throw ValidationError("Unknown segment mode \"\(entry.mode)\": use numeric, alphanumeric, byte, kanji or eci.")
            }
        }
    }

    private static func required<T>(_ value: T?, _ field: String, _ mode: String) throws -> T {
        guard let value else { throw ValidationError("The \(mode) segment needs \(field).") }
        return value
    }

    private static func hex(_ text: String) throws -> [UInt8] {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { throw ValidationError("Odd number of hex digits in \"\(text)\".") }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        for i in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[i..<i + 2], as: UTF8.self), radix: 16) else {
                throw ValidationError("Invalid hex digits in \"\(text)\".")
            }
            bytes.append(byte)
        }
        return bytes
    }
}
