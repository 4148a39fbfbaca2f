import Foundation
import Testing
import QRTestSupport
import QRImage

/// A gray page of one `level` (pages told apart by their level).
private func plainPage(_ level: UInt8, width: Int = 5, height: Int = 3) -> TIFFFile {
    TIFFFile.gray(width: width, height: height, pixels: [UInt8](repeating: level, count: width * height))
}

private func gray(_ bytes: [UInt8], page: Int) throws -> [UInt8] {
    try ImageDecoder().decodeGray(bytes, page: page).image.pixels
}

@Suite("TIFF pages")
struct TIFFPagesTests {
    /// Three pages unlike each other: gray strips, LZW RGB turned right, CCITT G4 upside down.
    private static let grayPixels: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]
    private static let rgbPixels: [UInt8] = (0..<27).map { UInt8($0 * 9) }
    /// `rgbPixels` as opaque RGBA.
    private static let rgbaPixels: [UInt8] = stride(from: 0, to: 27, by: 3).flatMap { (i: Int) -> [UInt8] in
        Array(rgbPixels[i..<i + 3]) + [255]
    }
    private static let blackPixels: [UInt8] = (0..<18).map { $0 % 3 == 0 ? 1 : 0 }
    private static var threePages: [TIFFFile] {
        var rgb = TIFFFile.rgbLZW(width: 3, height: 3, pixels: rgbPixels)
        rgb.set(TIFFFile.Field(274, [6]))
        var fax = TIFFFile.bilevel(width: 9, height: 2, pixels: blackPixels, coding: .group4)
        fax.set(TIFFFile.Field(274, [3]))
        return [TIFFFile.gray(width: 4, height: 2, pixels: grayPixels), rgb, fax]
    }

    @Test(arguments: [(false, false), (true, false), (false, true), (true, true)])
    func everyPageIsCountedAndDecodesToItsOwnPixelsAndOrientation(bigEndian: Bool, bigTIFF: Bool) throws {
        for count in 1...3 {
            let bytes = MultiPageTIFF(Array(Self.threePages.prefix(count)), bigEndian: bigEndian, bigTIFF: bigTIFF).bytes
            #expect(try ImageDecoder().pageCount(bytes) == count)
            let first = try ImageDecoder().decodeGray(bytes)
            #expect(first.image.pixels == Self.grayPixels)
            #expect(first.orientation == .up)
            guard count > 1 else { continue }
            let second = try ImageDecoder().decodeRGBA(bytes, page: 1)
            #expect((second.image.width, second.image.height) == (3, 3))
            #expect(second.image.pixels == Self.rgbaPixels)
            #expect(second.orientation == .right)
            guard count > 2 else { continue }
            let third = try ImageDecoder().decodeGray(bytes, page: 2, conversion: .darkestChannel)
            #expect(third.image.pixels == Self.blackPixels.map { $0 == 1 ? 0 : 255 })
            #expect(third.orientation == .down)
        }
    }

    /// The pages found once decode as each page decoded alone does; a single-page file has one.
    @Test func pagesFoundOnceDecodeAsEachPageAlone() throws {
        let bytes = MultiPageTIFF(Self.threePages).bytes
        let pages = try ImageDecoder().pages(bytes)
        #expect(pages.count == 3)
        #expect(pages.format == .tiff)
        for page in 0..<3 {
            #expect(try pages.decodeGray(page: page) == ImageDecoder().decodeGray(bytes, page: page))
            #expect(try pages.decodeRGBA(page: page) == ImageDecoder().decodeRGBA(bytes, page: page))
        }
        #expect(throws: ImageError.self) { try pages.decodeGray(page: 3) }
        let single = try ImageDecoder().pages(plainPage(9).bytes)
        #expect(single.count == 1)
        #expect(try single.decodeGray(page: 0).image.pixels == [UInt8](repeating: 9, count: 15))
    }

    @Test func filesAreCountedAndDecodedByPageToo() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/pages.tif"
        try Data(MultiPageTIFF(Self.threePages).bytes).write(to: URL(fileURLWithPath: path))
        let decoder = ImageDecoder()
        #expect(try decoder.pageCount(contentsOf: path) == 3)
        #expect(try decoder.decodeGray(contentsOf: path, page: 2).orientation == .down)
        #expect(try decoder.decodeRGBA(contentsOf: path, page: 1).image.width == 3)
        #expect(throws: ImageError.readFailed(path: directory + "/none.tif", reason: "No such file or directory")) {
            try decoder.pageCount(contentsOf: directory + "/none.tif")
        }
    }

    @Test func aPageOutOfRangeIsAnInvalidArgument() throws {
        let bytes = MultiPageTIFF(Self.threePages).bytes
        #expect(throws: ImageError.invalidArgument("page 3 (counted from 0) was asked for, but the image has 3 pages")) {
            try ImageDecoder().decodeGray(bytes, page: 3)
        }
        #expect(throws: ImageError.invalidArgument("page -1 (counted from 0) was asked for, but the image has 3 pages")) {
            try ImageDecoder().decodeRGBA(bytes, page: -1)
        }
        #expect(ImageError.invalidArgument("page 3 (counted from 0) was asked for, but the image has 3 pages").description
                == "Invalid argument: page 3 (counted from 0) was asked for, but the image has 3 pages.")
    }

    /// Every other format holds one page, counted without decoding it; asking for another is refused before
    /// decoding too.
    @Test func otherFormatsHaveOnePage() throws {
        for bytes in [try smallPNG(), try smallJPEG(), try smallGIF(), try smallBMP(), Array("P5 2 1 255\n\u{1}\u{2}".utf8)] {
            #expect(try ImageDecoder().pageCount(bytes) == 1)
            #expect(throws: ImageError.invalidArgument("page 1 (counted from 0) was asked for, but the image has one page")) {
                try ImageDecoder().decodeGray(bytes, page: 1)
            }
        }
        // A PNG header claiming ten gigapixels is still one page: counting reads no pixels.
        let huge: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
                             0x00, 0x01, 0x86, 0xA0, 0x00, 0x01, 0x86, 0xA0]
        #expect(try ImageDecoder().pageCount(huge) == 1)
        #expect(throws: ImageError.unsupportedFormat("WebP")) { try ImageDecoder().pageCount(Array("RIFF\0\0\0\0WEBPVP8 ".utf8)) }
        #expect(throws: ImageError.fileTooLarge(path: nil, bytes: 24, limit: 10)) {
            try ImageDecoder(limits: ImageLimits(maxFileSize: 10)).pageCount(huge)
        }
    }

    /// A next-directory offset pointing back at a directory already read ends the chain: each page is
    /// counted once, and nothing loops.
    @Test(.timeLimit(.minutes(1)), arguments: [false, true])
    func aChainThatLoopsBackIsCountedOnceRound(bigTIFF: Bool) throws {
        var file = MultiPageTIFF([plainPage(10), plainPage(20), plainPage(30)], bigTIFF: bigTIFF)
        let cases: [(links: [Int: MultiPageTIFF.Link], pages: [UInt8])] = [
            ([1: .page(0)], [10, 20]),  // page 2 back to page 1
            ([0: .page(0)], [10]),  // page 1 to itself
            ([2: .page(1)], [10, 20, 30]),  // the last page back to the middle one
        ]
        for (links, levels) in cases {
            file.links = links
            let bytes = file.bytes
            #expect(try ImageDecoder().pageCount(bytes) == levels.count, "\(links)")
            for (page, level) in levels.enumerated() {
                #expect(try gray(bytes, page: page) == [UInt8](repeating: level, count: 15))
            }
            #expect(throws: ImageError.self) { try gray(bytes, page: levels.count) }
        }
    }

    /// A damaged page is an error of its own: the pages before (and, where the chain goes on, after) it decode
    /// as they would without it. Counting reads only directories, so damaged pixel data does not change it.
    @Test(arguments: [false, true])
    func aDamagedPageLeavesTheOthersReadable(bigTIFF: Bool) throws {
        var noWidth = plainPage(20)
        noWidth.remove(256)
        var stripsPastTheEnd = plainPage(20)
        stripsPastTheEnd.offsetShift = 100_000
        var huge = plainPage(20)
        huge.set(TIFFFile.Field(256, type: 4, [100_000]))
        huge.set(TIFFFile.Field(257, type: 4, [100_000]))
        let badLZW = TIFFFile(width: 2, height: 2, photometric: 1, compression: 5,
                              chunks: [LZWEncoder.pack([LZWEncoder.Code(256, width: 9), LZWEncoder.Code(300, width: 9)], msbFirst: true)])
        let cases: [(TIFFFile, ImageError)] = [
            (noWidth, .corrupt(.tiff, "the ImageWidth field is missing")),
            (stripsPastTheEnd, .truncated(.tiff)),
            (huge, .tooLarge(width: 100_000, height: 100_000, limit: 100_000_000)),
            (badLZW, .corrupt(.tiff, "the LZW code 300 is not in the table (the next free code is 258)")),
        ]
        for (damaged, error) in cases {
            let bytes = MultiPageTIFF([plainPage(10), damaged, plainPage(30)], bigTIFF: bigTIFF).bytes
            #expect(try ImageDecoder().pageCount(bytes) == 3)
            #expect(try gray(bytes, page: 0) == [UInt8](repeating: 10, count: 15))
            #expect(throws: error) { try gray(bytes, page: 1) }
            #expect(try gray(bytes, page: 2) == [UInt8](repeating: 30, count: 15))
        }

        // A chain broken at page 2 (its directory past the end of the file, or the file cut at or inside it):
        // page 2 is counted and truncated, page 1 decodes, and the chain ends there.
        var file = MultiPageTIFF([plainPage(10), plainPage(20), plainPage(30)], bigTIFF: bigTIFF)
        let second = file.directoryOffsets[1]
        let whole = file.bytes
        file.links = [0: .offset(1_000_000)]
        for bytes in [file.bytes, Array(whole.prefix(second)), Array(whole.prefix(second + 1)), Array(whole.prefix(second + 30))] {
            #expect(try ImageDecoder().pageCount(bytes) == 2)
            #expect(try gray(bytes, page: 0) == [UInt8](repeating: 10, count: 15))
            #expect(throws: ImageError.truncated(.tiff)) { try gray(bytes, page: 1) }
        }
    }

    /// Reduced-resolution images (NewSubfileType bit 0) and transparency masks (bit 2) are not pages; bit 1
    /// ("a page of a multi-page document") changes nothing. A file holding nothing else still reads.
    @Test(arguments: [(false, 4), (false, 3), (true, 16)])
    func thumbnailsAndTransparencyMasksAreNotPages(bigTIFF: Bool, type: Int) throws {
        var thumbnail = plainPage(99, width: 2, height: 1)
        thumbnail.set(TIFFFile.Field(254, type: type, [1]))
        var mask = TIFFFile(width: 5, height: 3, bits: 1, photometric: 4, chunks: [[0, 0, 0]])
        mask.set(TIFFFile.Field(254, type: type, [4]))
        var second = plainPage(20)
        second.set(TIFFFile.Field(254, type: type, [2]))
        let bytes = MultiPageTIFF([thumbnail, plainPage(10), mask, thumbnail, second, thumbnail], bigTIFF: bigTIFF).bytes
        #expect(try ImageDecoder().pageCount(bytes) == 2)
        #expect(try gray(bytes, page: 0) == [UInt8](repeating: 10, count: 15))
        #expect(try gray(bytes, page: 1) == [UInt8](repeating: 20, count: 15))

        let onlyThumbnails = MultiPageTIFF([thumbnail, thumbnail], bigTIFF: bigTIFF).bytes
        #expect(try ImageDecoder().pageCount(onlyThumbnails) == 2)
        #expect(try gray(onlyThumbnails, page: 1) == [99, 99])
    }
}
