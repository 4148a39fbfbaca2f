import Dispatch
import QRKit
import Synchronization

/// Decodes a list of image files, optionally several at once, keeping their order; every page of a
/// multi-page TIFF, in turn.
struct ImageScanner: Sendable {
    let options: ReaderOptions

    /// One image's codes (one page's, in a multi-page TIFF), with what the JSON output needs.
    struct Scan: Sendable {
        let codes: [ReadResult]
        /// Whether `--time-budget` cut the search short (``ReadReport/timedOut``).
        let timedOut: Bool
        let decodeMilliseconds: Double
        let orientation: ExifOrientation
        let storedWidth: Int
        let storedHeight: Int
    }

    /// A file's pages, each read or failed: one for every format but a multi-page TIFF, and one failure for a
    /// file that cannot be read or counted at all.
    struct Outcome: Sendable {
        let path: String
        let pages: [Result<Scan, ImageError>]
    }

    func scan(_ paths: [String], jobs: Int, progress: ProgressBar?) -> [Outcome] {
        let slots = ResultSlots(count: paths.count)
        DispatchQueue.concurrentPerform(iterations: Swift.min(jobs, Swift.max(1, paths.count))) { worker in
            var index = worker
            while index < paths.count {
                slots.set(index, Outcome(path: paths[index], pages: scanFile(paths[index])))
                progress?.advance()
                index += jobs
            }
        }
        progress?.finish()
        return slots.values
    }

    /// Every page of the file at `path` (`-`: standard input), one after the other: each page's pixels are
    /// freed before the next page is decoded, and only the file's bytes are kept meanwhile.
    func scanFile(_ path: String) -> [Result<Scan, ImageError>] {
        let decoder = ImageDecoder()
        let pages: ImagePages
        do {
            let bytes = try ImageList.bytes(of: path, maxBytes: decoder.limits.maxFileSize)
            pages = try decoder.pages(bytes)
        } catch {
            return [.failure(error)]
        }
        return (0..<pages.count).map { scanPage($0, of: pages) }
    }

    /// The codes on page `page` (from 0) of `pages`.
    private func scanPage(_ page: Int, of pages: ImagePages) -> Result<Scan, ImageError> {
        let decoded: DecodedImage<GrayImage>
        do {
            decoded = try pages.decodeGray(page: page)
        } catch {
            return .failure(error)
        }
        let clock = ContinuousClock()
        let start = clock.now
        // Decoding the file again for the second conversion (the same page) is file loading, not decoding.
        var loading = Duration.zero
        let report = QRCodeReader(options: options).readReport(decoded.image) {
            let loadStart = clock.now
            defer { loading += clock.now - loadStart }
            return try? pages.decodeGray(page: page, conversion: .darkestChannel).image
        }
        let elapsed = clock.now - start - loading
        return .success(Scan(codes: report.results, timedOut: report.timedOut, decodeMilliseconds: elapsed.inMilliseconds,
                             orientation: decoded.orientation, storedWidth: decoded.image.width, storedHeight: decoded.image.height))
    }
}

/// Slots for results produced out of order by several workers.
final class ResultSlots: Sendable {
    private let storage: Mutex<[ImageScanner.Outcome?]>

    init(count: Int) { storage = Mutex(Array(repeating: nil, count: count)) }

    func set(_ index: Int, _ value: ImageScanner.Outcome) {
        storage.withLock { $0[index] = value }
    }

    var values: [ImageScanner.Outcome] { storage.withLock { $0.compactMap { $0 } } }
}
