import Foundation
import Testing
import QRImage

@Suite("File reading and atomic writing")
struct ImageFileTests {
    @Test func readsWithinTheLimitAndNamesThePathOtherwise() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/data.bin"
        try ImageFile.writeAtomically([UInt8](repeating: 7, count: 100), to: path)
        #expect(try ImageFile.read(path, maxBytes: 100) == [UInt8](repeating: 7, count: 100))
        #expect(throws: ImageError.fileTooLarge(path: path, bytes: 100, limit: 99)) { try ImageFile.read(path, maxBytes: 99) }

        let missing = directory + "/missing.png"
        #expect(throws: ImageError.readFailed(path: missing, reason: "No such file or directory")) {
            try ImageFile.read(missing, maxBytes: 10)
        }
        #expect(ImageError.readFailed(path: missing, reason: "x").description.contains(missing))
        #expect(throws: ImageError.readFailed(path: directory, reason: "it is a directory")) {
            try ImageFile.read(directory, maxBytes: 10)
        }
    }

    @Test func decodesFilesByContentNotName() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/actually-a-png.jpg"
        try ImageFile.writeAtomically(try smallPNG(), to: path)
        #expect(try ImageDecoder().decodeGray(contentsOf: path).format == .png)
        let limited = ImageDecoder(limits: ImageLimits(maxFileSize: 16))
        #expect(throws: ImageError.self) { try limited.decodeRGBA(contentsOf: path) }
    }

    @Test func replacesAtomicallyAndKeepsTheMode() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/out.png"
        try ImageFile.writeAtomically([1, 2, 3], to: path)
        #expect(try ImageFile.read(path, maxBytes: 10) == [1, 2, 3])
        let newMode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(newMode == 0o644)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        try ImageFile.writeAtomically([4, 5], to: path)
        #expect(try ImageFile.read(path, maxBytes: 10) == [4, 5])
        let keptMode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(keptMode == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["out.png"])
    }

    @Test func targetThatIsADirectoryIsLeftUntouched() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let target = directory + "/target"
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: false)
        try ImageFile.writeAtomically([9], to: target + "/inside")
        #expect(throws: ImageError.self) { try ImageFile.writeAtomically([1, 2, 3], to: target) }
        // The directory and its content survive, and no temporary file is left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["target"])
        #expect(try ImageFile.read(target + "/inside", maxBytes: 10) == [9])
    }

    @Test func unwritableDirectoriesFailWithoutLeftovers() throws {
        // procfs refuses new files even to root; a missing directory fails everywhere.
        for path in ["/proc/qrkit-test-output.png", "/nonexistent-qrkit-directory/out.png"] {
            #expect(throws: ImageError.self) { try ImageFile.writeAtomically([1], to: path) }
        }
        #expect(throws: ImageError.writeFailed(path: "", reason: "the path is empty")) {
            try ImageFile.writeAtomically([1], to: "")
        }
        guard geteuid() != 0 else { return }  // permission bits do not stop root
        let directory = try makeTemporaryDirectory()
        defer {
            try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory)
            try? FileManager.default.removeItem(atPath: directory)
        }
        try ImageFile.writeAtomically([1], to: directory + "/existing")
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: directory)
        #expect(throws: ImageError.self) { try ImageFile.writeAtomically([2, 2], to: directory + "/existing") }
        #expect(try ImageFile.read(directory + "/existing", maxBytes: 10) == [1])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["existing"])
    }
}
