import Testing
@testable import QRCore

@Suite struct VersionTests {
    @Test func sizesAndBounds() {
        #expect(Version(0) == nil)
        #expect(Version(41) == nil)
        #expect(Version.min.size == 21)
        #expect(Version.max.size == 177)
        #expect(Version(size: 25)?.number == 2)
        #expect(Version(size: 26) == nil)
    }

    @Test func codewordCountsMatchTheStandard() throws {
        let v1 = try #require(Version(1)), v5 = try #require(Version(5)), v40 = try #require(Version(40))
        #expect(v1.totalCodewords == 26)
        #expect(v1.dataCodewords(.low) == 19)
        #expect(v1.dataCodewords(.high) == 9)
        #expect(v5.dataCodewords(.quartile) == 62)
        #expect(v40.totalCodewords == 3706)
        #expect(v40.dataCodewords(.low) == 2956)
        #expect(v40.dataCodewords(.high) == 1276)
        #expect(try #require(Version(2)).remainderBits == 7)
        #expect(try #require(Version(14)).remainderBits == 3)
        #expect(try #require(Version(21)).remainderBits == 4)
        #expect(try #require(Version(35)).remainderBits == 0)
    }

    @Test func blocksAddUpForEveryVersionAndLevel() {
        for version in Version.all {
            for level in ErrorCorrectionLevel.allCases {
                let layout = BlockLayout(version: version, level: level)
                #expect(layout.totalCodewords == version.totalCodewords)
                #expect(layout.dataCodewords == version.dataCodewords(level))
                let lengths = Set(layout.dataCodewordsPerBlock)
                #expect(lengths.count <= 2 && (lengths.max() ?? 0) - (lengths.min() ?? 0) <= 1)
                #expect(layout.blockIndices().flatMap { $0 }.sorted() == Array(0..<version.totalCodewords))
            }
        }
    }

    @Test func alignmentPatternCenters() throws {
        #expect(try #require(Version(1)).alignmentPatternCenters == [])
        #expect(try #require(Version(2)).alignmentPatternCenters == [6, 18])
        #expect(try #require(Version(7)).alignmentPatternCenters == [6, 22, 38])
        #expect(try #require(Version(32)).alignmentPatternCenters == [6, 34, 60, 86, 112, 138])
        #expect(try #require(Version(40)).alignmentPatternCenters == [6, 30, 58, 86, 114, 142, 170])
    }

    @Test func templatesLeaveExactlyTheDataModules() {
        for version in Version.all {
            let template = SymbolTemplate.of(version)
            #expect(template.dataPositions.count == version.dataModuleCount)
            #expect(Set(template.dataPositions).count == template.dataPositions.count)
            #expect(template.isFunction.filter { $0 == 0 }.count == version.dataModuleCount)
            #expect(template.functionPatterns[8, version.size - 8], "dark module")
        }
    }

    @Test func interleavingRoundTrips() throws {
        let layout = BlockLayout(version: try #require(Version(5)), level: .quartile)
        let data = (0..<layout.dataCodewords).map { UInt8($0 % 256) }
        let interleaved = layout.interleavedWithErrorCorrection(data)
        let indices = layout.blockIndices()
        var recovered: [UInt8] = []
        for (block, length) in zip(indices, layout.dataCodewordsPerBlock) {
            recovered += block.prefix(length).map { interleaved[$0] }
        }
        #expect(recovered == data)
        #expect(layout.dataCodewordsPerBlock == [15, 15, 16, 16])
    }

    @Test func levelsParseAndCarryTheirFormatBits() {
        #expect(ErrorCorrectionLevel("q") == .quartile)
        #expect(ErrorCorrectionLevel("High") == .high)
        #expect(ErrorCorrectionLevel("x") == nil)
        for level in ErrorCorrectionLevel.allCases {
            #expect(ErrorCorrectionLevel(formatBits: level.formatBits) == level)
        }
        #expect(ErrorCorrectionLevel.allCases.map(\.recoveryPercent) == [7, 15, 25, 30])
    }
}
