/// The pages of a TIFF file: the image file directories (IFDs) that the header's first-directory offset and
/// each directory's next-directory offset chain together, in that order. Counting them reads no pixels.
///
/// Reduced-resolution images (thumbnails, NewSubfileType bit 0) and transparency masks (bit 2) belong to a
/// page rather than being one, so they are left out, unless every directory is one (then all are pages, so
/// such a file still reads). The flags are looked for in a directory's first entry only, where the
/// specification's ascending tag order puts NewSubfileType (254, the lowest tag of an image): reading every
/// entry would let 10,000 directories of a million entries each stall the count.
///
/// The chain is untrusted. It ends at an offset of 0, at an offset seen before (a cycle), after
/// ``maximumDirectories`` directories, at a directory whose next offset is missing, or at one that is cut
/// short (starting past the end of the file, or its entries running past it). A directory cut short is still
/// a page, whose decoding is `.truncated`, so the pages before it read as ever: a file whose download stopped
/// early keeps its first pages.
struct TIFFPages: Sendable {
    /// The most directories read, pages or not: far more than any scanned or faxed document has.
    static let maximumDirectories = 10_000

    let header: TIFFHeader
    /// Where each page's directory starts.
    let directories: [Int]

    /// Reads the header of `bytes`, which start with "II" or "MM", and walks its chain of directories.
    init(_ bytes: [UInt8]) throws(ImageError) {
        header = try TIFFHeader(bytes)
        var found: [(offset: Int, secondary: Bool)] = []
        var seen: Set<Int> = []
        var next = header.firstDirectory
        while next != 0, found.count < Self.maximumDirectories, seen.insert(next).inserted {
            guard let link = try? Self.link(at: next, in: bytes, header: header) else {
                found.append((next, false))
                break
            }
            found.append((next, link.secondary))
            next = link.next
        }
        let pages = found.filter { !$0.secondary }
        directories = (pages.isEmpty ? found : pages).map(\.offset)
    }

    var count: Int { directories.count }

    /// Whether the directory at `offset` is a reduced-resolution image or transparency mask, and where the
    /// next directory starts (0 when its offset is missing). Throws when the directory is cut short.
    private static func link(at offset: Int, in bytes: [UInt8], header: TIFFHeader) throws(ImageError) -> (secondary: Bool, next: Int) {
        var reader = ByteReader(bytes, format: .tiff, position: offset, bigEndian: header.bigEndian)
        let entryCount = try header.entryCount(&reader)
        guard entryCount <= (bytes.count - reader.position) / header.entrySize else { throw .truncated(.tiff) }
        var secondary = false
        if entryCount > 0, try reader.uint16() == 254 {
            let type = try reader.uint16()
            _ = try header.unsigned(&reader)  // the value count: the first value is the field
            let flags: Int? = switch type {
            case 3: try reader.uint16()
            case 4: Int(try reader.uint32())
            case 16 where header.big: try header.unsigned(&reader)
            default: nil
            }
            secondary = (flags ?? 0) & 0b101 != 0
        }
        reader.position = offset + header.entryCountSize + entryCount * header.entrySize
        return (secondary, (try? header.unsigned(&reader)) ?? 0)
    }
}
