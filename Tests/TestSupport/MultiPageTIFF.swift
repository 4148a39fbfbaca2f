/// Several ``TIFFFile`` images in one file, as scanners and fax software write multi-page documents: each
/// page's strips, then its directory, whose next-directory offset points at the following page's (0 after the
/// last). The file's byte order and classic or BigTIFF layout apply to every page.
///
/// `links` sends a page's next-directory offset elsewhere, to build damaged chains: back to an earlier page
/// (a cycle), past the end of the file, or to no page.
public struct MultiPageTIFF: Sendable {
    /// Where a page's next-directory offset points.
    public enum Link: Sendable {
        /// The directory of page `index` (from 0).
        case page(Int)
        /// An offset in the file, or past its end.
        case offset(Int)
    }

    public var pages: [TIFFFile]
    public var bigEndian: Bool
    public var bigTIFF: Bool
    /// Next-directory offsets, by page index, that replace the plain chain's.
    public var links: [Int: Link] = [:]

    public init(_ pages: [TIFFFile], bigEndian: Bool = false, bigTIFF: Bool = false) {
        self.pages = pages
        self.bigEndian = bigEndian
        self.bigTIFF = bigTIFF
    }

    /// Where each page's directory starts in ``bytes``.
    public var directoryOffsets: [Int] { layout(directories: nil).directories }

    public var bytes: [UInt8] {
        let directories = directoryOffsets
        return withFileLayout(pages[0]).header(firstDirectory: directories[0]) + layout(directories: directories).bytes
    }

    /// `page` with the file's byte order and classic or BigTIFF layout.
    private func withFileLayout(_ page: TIFFFile) -> TIFFFile {
        var page = page
        (page.bigEndian, page.bigTIFF) = (bigEndian, bigTIFF)
        return page
    }

    /// The pages laid out one after the other; with `directories` known, each next-directory offset points
    /// where the chain (or `links`) says.
    private func layout(directories: [Int]?) -> (bytes: [UInt8], directories: [Int]) {
        var out: [UInt8] = [], offsets: [Int] = []
        let headerSize = bigTIFF ? 16 : 8
        for (index, page) in pages.map(withFileLayout).enumerated() {
            var next = 0
            if let directories {
                switch links[index] {
                case let .page(target)?: next = directories[target]
                case let .offset(offset)?: next = offset
                case nil: next = index + 1 < pages.count ? directories[index + 1] : 0
                }
            }
            let body = page.body(at: headerSize + out.count, nextDirectory: next)
            offsets.append(body.directory)
            out += body.bytes
            // Directories start on a word boundary, as the specification asks.
            if out.count % 2 == 1 { out.append(0) }
        }
        return (out, offsets)
    }
}
