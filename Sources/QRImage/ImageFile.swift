#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading files with a size bound and writing them atomically, with errors that name the path.
public enum ImageFile {
    /// The bytes of the file at `path`; refuses files larger than `maxBytes` without reading them whole
    /// (pipes and devices are read up to the limit).
    public static func read(_ path: String, maxBytes: Int) throws(ImageError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .readFailed(path: path, reason: systemMessage()) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .readFailed(path: path, reason: systemMessage()) }
        let isRegular = status.st_mode & S_IFMT == S_IFREG
        if status.st_mode & S_IFMT == S_IFDIR { throw .readFailed(path: path, reason: "it is a directory") }
        if isRegular, Int(status.st_size) > maxBytes {
            throw .fileTooLarge(path: path, bytes: Int(status.st_size), limit: maxBytes)
        }

        var bytes: [UInt8] = []
        if isRegular { bytes.reserveCapacity(Int(status.st_size)) }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .readFailed(path: path, reason: systemMessage())
            }
            if count == 0 { return bytes }
            guard bytes.count + count <= maxBytes else {
                throw .fileTooLarge(path: path, bytes: bytes.count + count, limit: maxBytes)
            }
            bytes += chunk[0..<count]
        }
    }

    /// Writes `bytes` to `path` so that readers see either the old file or the complete new one: the data
    /// goes to a temporary file in the same directory, is flushed to disk, then renamed over `path`. On any
    /// failure the temporary file is removed and `path` is left untouched. A new file gets mode 0644; an
    /// existing file keeps its mode.
    public static func writeAtomically(_ bytes: [UInt8], to path: String) throws(ImageError) {
        guard !path.isEmpty else { throw .writeFailed(path: path, reason: "the path is empty") }
        // The temporary file must be in the target's directory so that rename() is atomic.
        let prefix = path.lastIndex(of: "/").map { String(path[...$0]) } ?? ""
        let baseName = String(path.dropFirst(prefix.count))
        var template = (prefix + ".\(baseName).tmp-XXXXXX").utf8CString
        let descriptor = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { mkstemp($0) } ?? -1
        }
        guard descriptor >= 0 else { throw .writeFailed(path: path, reason: systemMessage()) }
        let temporaryPath = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)

        var closed = false
        do throws(ImageError) {
            var existing = stat()
            let mode: mode_t = stat(path, &existing) == 0 ? existing.st_mode & 0o7777 : 0o644
            guard fchmod(descriptor, mode) == 0 else { throw .writeFailed(path: path, reason: systemMessage()) }
            try writeAll(bytes, to: descriptor, path: path)
            guard fsync(descriptor) == 0 else { throw .writeFailed(path: path, reason: systemMessage()) }
            closed = true
            guard close(descriptor) == 0 else { throw .writeFailed(path: path, reason: systemMessage()) }
            guard rename(temporaryPath, path) == 0 else { throw .writeFailed(path: path, reason: systemMessage()) }
        } catch {
            if !closed { close(descriptor) }
            unlink(temporaryPath)
            throw error
        }
        // Make the rename itself durable; the file is complete either way, so a failure here is ignored.
        let directoryDescriptor = open(prefix.isEmpty ? "." : prefix, O_RDONLY | O_CLOEXEC)
        if directoryDescriptor >= 0 {
            fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: String) throws(ImageError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw .writeFailed(path: path, reason: systemMessage())
            }
            offset += written
        }
    }

    /// POSIX read(2); named apart from `ImageFile.read`, which would shadow it.
    private static func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.read(descriptor, buffer, count)
        #elseif canImport(Musl)
        Musl.read(descriptor, buffer, count)
        #else
        Darwin.read(descriptor, buffer, count)
        #endif
    }

    private static func systemMessage() -> String {
        String(cString: strerror(errno))
    }
}
