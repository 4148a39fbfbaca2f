#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import QREncoder
import QRImage
import QRCore

/// Where a logo goes on a symbol and which codewords it destroys, checked against what the symbol's
/// error correction can restore.
///
/// The logo is scaled, keeping its aspect ratio, to a box of at most `areaShare` of the symbol's area,
/// snapped to whole modules (an odd number each way, so it is exactly centred) and surrounded by the
/// padding ring. Every module under box or ring counts as lost. A codeword is damaged when any of its 8
/// modules is lost; the logo is refused when it covers a finder, timing, format or version pattern, or when
/// some Reed–Solomon block loses more codewords than it can restore minus a safety margin of
/// `safetyMargin` codeword for dirt, glare and blur in real photos. Alignment patterns may be covered, as
/// logo generators commonly do: readers locate the symbol without them.
public struct LogoPlacement: Sendable, Hashable {
    /// Codewords per block kept in reserve for real-world damage.
    public static let safetyMargin = 1

    /// The box the logo image is fitted into (centred, aspect ratio kept).
    public let logoArea: ModuleRect
    /// The logo box plus its padding ring: every module here is drawn in the background colour.
    public let coveredArea: ModuleRect
    /// Damaged codewords of each Reed–Solomon block, in block order.
    public let damagedCodewordsPerBlock: [Int]
    /// Codewords each block can restore: (error-correction codewords − misdecode-protection codewords) / 2.
    public let correctableCodewordsPerBlock: Int

    /// Damaged codewords in all blocks.
    public var damagedCodewords: Int { damagedCodewordsPerBlock.reduce(0, +) }

    /// Codewords a block may lose to the logo: what it can restore minus the safety margin.
    public var allowedCodewordsPerBlock: Int { Swift.max(0, correctableCodewordsPerBlock - Self.safetyMargin) }

    /// The placement of `logo` on `code`, or a typed error saying why the code would not scan with it and
    /// which smaller share would.
    public static func validate(code: QRCode, logo: Logo) throws(RenderError) -> LogoPlacement {
        let version = code.version, level = code.errorCorrectionLevel
        guard code.size == version.size else {
            throw .invalidLogo("the symbol's matrix is \(code.size) modules wide, not the \(version.size) of version \(version)")
        }
        let placement = try LogoPlacement(version: version, level: level, logo: logo)
        // Codeword damage is reported first: it is what a smaller share or a higher level fixes.
        let worst = placement.damagedCodewordsPerBlock.max() ?? 0
        if worst > placement.allowedCodewordsPerBlock {
            throw .logoTooLarge(coveredCodewords: placement.damagedCodewords, worstBlock: worst,
                                correctable: placement.correctableCodewordsPerBlock,
                                allowed: placement.allowedCodewordsPerBlock, level: level,
                                largestFittingShare: largestFittingShare(version: version, level: level, logo: logo))
        }
        let covered = placement.essentialPatternsCovered(version: version)
        if !covered.isEmpty {
            throw .logoCoversFunctionPatterns(covered, largestFittingShare: largestFittingShare(version: version, level: level, logo: logo))
        }
        return placement
    }

    /// Geometry and codeword damage, without judging them.
    init(version: Version, level: ErrorCorrectionLevel, logo: Logo) throws(RenderError) {
        let size = version.size
        let aspect = Double(logo.image.width) / Double(logo.image.height)
        // Box of area share·size² with the logo's aspect ratio, rounded down to odd module counts.
        func oddFloor(_ value: Double) -> Int {
            let whole = Int(Swift.min(Double(size), value))
            return whole % 2 == 1 ? whole : whole - 1
        }
        let width = oddFloor(Double(size) * sqrt(logo.areaShare * aspect))
        let height = oddFloor(Double(size) * sqrt(logo.areaShare / aspect))
        guard width >= 1, height >= 1 else {
            throw .invalidLogo("a share of \(logo.areaShare) of a version \(version) symbol is less than one module "
                + "for a \(logo.image.width)×\(logo.image.height) logo")
        }
        logoArea = ModuleRect(x: (size - width) / 2, y: (size - height) / 2, width: width, height: height)
        coveredArea = logoArea.expanded(by: logo.padding)

        let template = SymbolTemplate.of(version)
        let codewords = version.totalCodewords
        var damaged = [Bool](repeating: false, count: codewords)
        for (bit, position) in template.dataPositions.prefix(codewords * 8).enumerated() {
            let index = Int(position)
            if coveredArea.contains(x: index % size, y: index / size) { damaged[bit / 8] = true }
        }
        let layout = BlockLayout(version: version, level: level)
        damagedCodewordsPerBlock = layout.blockIndices().map { block in block.count { damaged[$0] } }
        let protection = Self.misdecodeProtection(version: version, level: level)
        correctableCodewordsPerBlock = (layout.errorCorrectionCodewordsPerBlock - protection) / 2
    }

    /// Codewords the standard reserves against misdecoding in the smallest symbols (ISO/IEC 18004 table 9,
    /// note b); they cannot be spent on corrections.
    private static func misdecodeProtection(version: Version, level: ErrorCorrectionLevel) -> Int {
        switch (version.number, level) {
        case (1, .low): 3
        case (1, .medium), (2, .low): 2
        case (1, _), (3, .low): 1
        default: 0
        }
    }

    /// Names of the function patterns under the covered area that readers need, most important first.
    private func essentialPatternsCovered(version: Version) -> [String] {
        let size = version.size
        let template = SymbolTemplate.of(version)
        let format = Set(FormatInformation.positions(size: size).flatMap { $0 }.map { $0.y * size + $0.x } + [(size - 8) * size + 8])
        let versionInfo = version.hasVersionInformation
            ? Set(VersionInformation.positions(size: size).flatMap { $0 }.map { $0.y * size + $0.x }) : []
        var kinds = Set<String>()
        for y in Swift.max(0, coveredArea.y)..<Swift.min(size, coveredArea.y + coveredArea.height) {
            for x in Swift.max(0, coveredArea.x)..<Swift.min(size, coveredArea.x + coveredArea.width)
            where template.isFunction[y * size + x] != 0 {
                let inFinder = (x < 8 || x >= size - 8) && (y < 8 || y >= size - 8) && !(x >= size - 8 && y >= size - 8)
                if inFinder { kinds.insert("finder patterns") }
                else if format.contains(y * size + x) { kinds.insert("format information") }
                else if versionInfo.contains(y * size + x) { kinds.insert("version information") }
                else if x == 6 || y == 6 { kinds.insert("timing patterns") }
            }
        }
        let order = ["finder patterns", "format information", "version information", "timing patterns"]
        return order.filter(kinds.contains)
    }

    /// The placement of the largest logo, at most `maximumShare` of the symbol area in steps of 1 %, that
    /// `code` can carry: how a logo is sized when the user gives no share.
    public static func largestFitting(code: QRCode, image: RGBAImage, maximumShare: Double = 0.2,
                                      padding: Int = 1) throws(RenderError) -> (logo: Logo, placement: LogoPlacement) {
        let largest = try Logo(image: image, areaShare: maximumShare, padding: padding)
        if let placement = try? validate(code: code, logo: largest) { return (largest, placement) }
        guard let share = largestFittingShare(version: code.version, level: code.errorCorrectionLevel, logo: largest) else {
            throw .invalidLogo("version \(code.version)-\(code.errorCorrectionLevel) has no room for a logo: "
                + "use level H or a larger version")
        }
        let logo = try Logo(image: image, areaShare: share, padding: padding)
        return (logo, try validate(code: code, logo: logo))
    }

    /// The largest share, in steps of 1 %, below the logo's that would pass, if any.
    private static func largestFittingShare(version: Version, level: ErrorCorrectionLevel, logo: Logo) -> Double? {
        var percent = Int((logo.areaShare * 100).rounded(.up)) - 1
        while percent >= 1 {
            let share = Double(percent) / 100
            if let smaller = try? Logo(image: logo.image, areaShare: share, padding: logo.padding),
               let placement = try? LogoPlacement(version: version, level: level, logo: smaller),
               placement.essentialPatternsCovered(version: version).isEmpty,
               (placement.damagedCodewordsPerBlock.max() ?? 0) <= placement.allowedCodewordsPerBlock {
                return share
            }
            percent -= 1
        }
        return nil
    }
}
