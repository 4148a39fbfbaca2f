import Testing
import QRTestSupport
import QRImage

/// Damaged input must decode or throw an `ImageError` — never crash, hang or return half an image.
@Suite("Truncated and corrupted input")
struct RobustnessTests {
    /// Every prefix either throws or, once all image data is present, decodes to exactly the full image.
    @Test(arguments: ["png", "jpeg", "progressive jpeg", "pgm", "gif", "bmp", "tiff", "bigtiff", "tiff g4"])
    func everyPrefixDecodesFullyOrThrows(kind: String) throws {
        let bytes = try sample(kind)
        let full = try ImageDecoder().decodeRGBA(bytes).image
        var truncatedCount = 0
        for length in 0..<bytes.count {
            do throws(ImageError) {
                let image = try ImageDecoder().decodeRGBA(Array(bytes[0..<length])).image
                #expect(image == full, "prefix of \(length) bytes decoded to a different image")
            } catch .truncated {
                truncatedCount += 1
            } catch {
                // Cut inside the signature the format is unknown; other messages are fine too.
            }
        }
        #expect(truncatedCount > bytes.count / 2)
    }

    /// A baseline JPEG that lacks only its end marker holds every row: it decodes whole, as browsers show it.
    /// A progressive one stays truncated: cut between two scans, it would read as a coarser whole image.
    @Test func aBaselineJPEGWithoutItsEndMarkerDecodesWhole() throws {
        let bytes = try smallJPEG()
        #expect(bytes.suffix(2) == [0xFF, 0xD9])
        let full = try ImageDecoder().decodeRGBA(bytes).image
        #expect(try ImageDecoder().decodeRGBA(Array(bytes.dropLast(2))).image == full)
        #expect(try ImageDecoder().decodeRGBA(Array(bytes.dropLast(1))).image == full)
        #expect(throws: ImageError.self) { try ImageDecoder().decodeRGBA(Array(try smallJPEG(progressive: true).dropLast(2))) }
    }

    @Test(arguments: ["png", "jpeg", "progressive jpeg", "gif", "bmp", "tiff", "bigtiff", "tiff g4", "tiff deflate", "tiff g3"])
    func randomByteFlipsNeverCrash(kind: String) throws {
        let original = try sample(kind)
        var random = SeededGenerator(seed: 20240601)
        var failures = 0
        for round in 0..<400 {
            var bytes = original
            for _ in 0...(round % 4) {
                // Keep the signature so the codec, not the sniffer, sees the damage.
                let index = Int.random(in: 4..<bytes.count, using: &random)
                bytes[index] = round % 3 == 0 ? UInt8.random(in: 0...255, using: &random) : bytes[index] ^ 0xFF
            }
            do throws(ImageError) {
                _ = try ImageDecoder().decodeGray(bytes)
                _ = try ImageDecoder().decodeRGBA(bytes)
            } catch {
                failures += 1
                #expect(!error.description.isEmpty)
            }
        }
        #expect(failures > 0)
    }

    /// Every prefix of a three-page TIFF, and random damage to it: counting its pages never crashes or hangs
    /// nor counts more than the file has (no thumbnails here), and every page counted in a prefix decodes to the
    /// whole file's page or throws, so a cut in a later page never spoils an earlier one.
    @Test(arguments: [false, true])
    func multiPageTIFFPrefixesAndDamageKeepEveryPageWholeOrThrow(bigTIFF: Bool) throws {
        let bytes = try smallMultiPageTIFF(bigEndian: bigTIFF, bigTIFF: bigTIFF)
        let decoder = ImageDecoder()
        let full = try (0..<3).map { try decoder.decodeRGBA(bytes, page: $0).image }
        var pagesRead = 0
        for length in 0..<bytes.count {
            let prefix = Array(bytes[0..<length])
            guard let count = try? decoder.pageCount(prefix) else { continue }
            #expect(count <= 3)
            for page in 0..<count {
                guard let image = try? decoder.decodeRGBA(prefix, page: page).image else { continue }
                #expect(image == full[page], "page \(page) of a prefix of \(length) bytes decoded to a different image")
                pagesRead += 1
            }
        }
        // Every page but the last is whole in the prefixes cut after it.
        #expect(pagesRead > 0)

        var random = SeededGenerator(seed: 20250301)
        for round in 0..<300 {
            var damaged = bytes
            for _ in 0...(round % 4) {
                let index = Int.random(in: 4..<damaged.count, using: &random)
                damaged[index] = round % 3 == 0 ? UInt8.random(in: 0...255, using: &random) : damaged[index] ^ 0xFF
            }
            guard let count = try? decoder.pageCount(damaged) else { continue }
            #expect((1...10_000).contains(count))
            for page in 0..<min(count, 8) {
                do throws(ImageError) {
                    _ = try decoder.decodeGray(damaged, page: page)
                } catch {
                    #expect(!error.description.isEmpty)
                }
            }
        }
    }

    @Test func garbageAfterValidSignaturesThrows() {
        var random = SeededGenerator(seed: 99)
        let signatures: [[UInt8]] = [[0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], [0xFF, 0xD8, 0xFF], Array("P5".utf8),
                                     Array("GIF89a".utf8), Array("BM".utf8) + [UInt8](repeating: 0, count: 12) + [40, 0, 0, 0],
                                     [0x49, 0x49, 0x2A, 0], [0x4D, 0x4D, 0, 0x2A], [0x4D, 0x4D, 0, 0x2B, 0, 8, 0, 0]]
        for signature in signatures {
            for length in [0, 1, 10, 100, 1000] {
                let bytes = signature + (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
                #expect(throws: ImageError.self) { try ImageDecoder().decodeGray(bytes) }
            }
        }
    }

    /// A small valid file of each kind.
    private func sample(_ kind: String) throws -> [UInt8] {
        switch kind {
        case "png": try smallPNG()
        case "jpeg": try smallJPEG()
        case "progressive jpeg": try smallJPEG(progressive: true)
        case "gif": try smallGIF()
        case "bmp": try smallBMP()
        case "tiff": try smallTIFF()
        case "bigtiff": try smallTIFF(bigEndian: true, bigTIFF: true)
        case "tiff g4": try smallG4TIFF()
        // Written by libtiff: Deflate, and T.4 with 2-D rows.
        case "tiff deflate": try Fixtures.bytes("tiff-deflate.tif")
        case "tiff g3": try Fixtures.bytes("tiff-g3-2d.tif")
        default: PNMEncoder.encodePGM(GrayImage(try samplePicture(width: 9, height: 5)))
        }
    }

    @Test func messagesComeFromTheCodecs() throws {
        var png = try smallPNG()
        png[29] ^= 0xFF  // inside IHDR: its CRC no longer matches
        #expect(throws: ImageError.corrupt(.png, "IHDR: CRC error")) { try ImageDecoder().decodeGray(png) }
        let notJPEG: [UInt8] = [0xFF, 0xD8, 0xFF, 0x01, 0x02]
        #expect(throws: ImageError.self) { try ImageDecoder().decodeGray(notJPEG) }
    }
}
