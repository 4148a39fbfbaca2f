#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Buffered, incremental reading of a stream from a file descriptor or from memory: a pipe is read as the
/// bytes arrive, and nothing beyond the frame being read is held.
struct ByteInput: Sendable {
    private enum Source: Sendable {
        case descriptor(Int32)
        case memory
    }

    /// A line read by ``readLine(limit:)``.
    enum Line: Equatable {
        /// The bytes before the newline.
        case complete([UInt8])
        /// The input ended before a newline; the bytes read (possibly none).
        case unterminated([UInt8])
        /// No newline within the limit; the first `limit` bytes.
        case tooLong([UInt8])
    }

    /// Bytes read from a descriptor at a time.
    private static let chunkSize = 1 << 16

    private let source: Source
    private var buffer: [UInt8]
    private var start = 0
    private var end = 0
    private var exhausted = false

    /// Reads `fileDescriptor`, which stays open and owned by the caller.
    init(fileDescriptor: Int32) {
        source = .descriptor(fileDescriptor)
        buffer = [UInt8](repeating: 0, count: Self.chunkSize)
    }

    /// Reads bytes held in memory.
    init(bytes: [UInt8]) {
        source = .memory
        buffer = bytes
        end = bytes.count
        exhausted = true
    }

    /// Makes buffered bytes available; false at the end of the input.
    private mutating func fill() throws(VideoStreamError) -> Bool {
        if start < end { return true }
        guard case let .descriptor(descriptor) = source, !exhausted else { return false }
        let count = try buffer.withUnsafeMutableBytes { raw in systemRead(descriptor, into: raw) }.get()
        start = 0
        end = count
        exhausted = count == 0
        return count > 0
    }

    /// The next line, without its newline, reading at most `limit` bytes.
    mutating func readLine(limit: Int) throws(VideoStreamError) -> Line {
        var line: [UInt8] = []
        while try fill() {
            let available = buffer[start..<end]
            if let newline = available.firstIndex(of: 0x0A), newline - start <= limit - line.count {
                line += buffer[start..<newline]
                start = newline + 1
                return .complete(line)
            }
            let take = min(end - start, limit - line.count)
            line += buffer[start..<start + take]
            start += take
            if line.count >= limit { return .tooLong(line) }
        }
        return .unterminated(line)
    }

    /// Up to `count` bytes: fewer only when the input ends first.
    mutating func read(count: Int) throws(VideoStreamError) -> [UInt8] {
        var failure: VideoStreamError?
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { output, initialized in
            while initialized < count {
                // Buffered bytes first; large remainders go straight from the descriptor into the output.
                if start < end {
                    let take = min(end - start, count - initialized)
                    buffer.withUnsafeBufferPointer { source in
                        let from = UnsafeBufferPointer(rebasing: source[start..<start + take])
                        _ = UnsafeMutableBufferPointer(rebasing: output[initialized..<initialized + take]).initialize(from: from)
                    }
                    start += take
                    initialized += take
                    continue
                }
                guard case let .descriptor(descriptor) = source, !exhausted else { return }
                if count - initialized < Self.chunkSize {
                    do throws(VideoStreamError) {
                        guard try fill() else { return }
                    } catch {
                        failure = error
                        return
                    }
                    continue
                }
                let destination = UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: output[initialized..<count]))
                switch systemRead(descriptor, into: destination) {
                case let .success(received):
                    if received == 0 {
                        exhausted = true
                        return
                    }
                    initialized += received
                case let .failure(error):
                    failure = error
                    return
                }
            }
        }
        if let failure { throw failure }
        return bytes
    }

    /// Discards up to `count` bytes; returns how many were discarded (fewer only when the input ends first).
    mutating func skip(count: Int) throws(VideoStreamError) -> Int {
        var skipped = 0
        while skipped < count, try fill() {
            let take = min(end - start, count - skipped)
            start += take
            skipped += take
        }
        return skipped
    }
}

/// One `read(2)`, retried when interrupted or when the descriptor is non-blocking and has nothing yet.
private func systemRead(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, VideoStreamError> {
    while true {
        let count = read(descriptor, buffer.baseAddress, buffer.count)
        if count >= 0 { return .success(count) }
        switch errno {
        case EINTR:
            continue
        case EAGAIN, EWOULDBLOCK:
            var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&request, 1, -1)
        default:
            return .failure(.readFailed(String(cString: strerror(errno))))
        }
    }
}
