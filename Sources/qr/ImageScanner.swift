import Dispatch
import Foundation
import QRKit
import Synchronization

/// Decodes a list of image files, optionally several at once, keeping their order.
struct ImageScanner: Sendable {
    let options: ReaderOptions

    /// One image's codes, with what the JSON output needs.
    struct Scan: Sendable {
        let codes: [ReadResult]
        /// Whether `--time-budget` cut the search short (``ReadReport/timedOut``).
        let timedOut: Bool
        let decodeMilliseconds: Double
        let orientation: ExifOrientation
        let storedWidth: Int
        let storedHeight: Int
    }

    struct Outcome: Sendable {
        let path: String
        let result: Result<Scan, ImageError>
    }

    func scan(_ paths: [String], jobs: Int, progress: ProgressBar?) -> [Outcome] {
        let slots = ResultSlots(count: paths.count)
        DispatchQueue.concurrentPerform(iterations: Swift.min(jobs, Swift.max(1, paths.count))) { worker in
            var index = worker
            while index < paths.count {
                slots.set(index, Outcome(path: paths[index], result: scanOne(paths[index])))
                progress?.advance()
                index += jobs
            }
        }
        progress?.finish()
        return slots.values
    }

    func scanOne(_ path: String) -> Result<Scan, ImageError> {
        let decoder = ImageDecoder()
        let decoded: DecodedImage<GrayImage>
        do {
            if path == "-" {
                let data = FileHandle.standardInput.readDataToEndOfFile()
                decoded = try decoder.decodeGray(Array(data))
            } else {
                decoded = try decoder.decodeGray(contentsOf: path)
            }
        } catch {
            return .failure(error)
        }
        let clock = ContinuousClock()
        let start = clock.now
        // Loading the file again for the second conversion is file loading, not decoding.
        var loading = Duration.zero
        let report = QRCodeReader(options: options).readReport(decoded.image) {
            guard path != "-" else { return nil }
            let loadStart = clock.now
            defer { loading += clock.now - loadStart }
            return try? decoder.decodeGray(contentsOf: path, conversion: .darkestChannel).image
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
