import QRCore

/// Reads the format information of a sampled symbol from both copies, in the symbol's orientation and
/// mirrored (transposed), and ranks the readings by how many bits had to be corrected.
enum FormatReader {
    struct Reading: Sendable {
        let format: FormatInformation
        let distance: Int
        let mirrored: Bool
    }

    /// Plausible readings, best first (fewest corrected bits; unmirrored first on ties). The orientation a
    /// symbol is not in reads its format bits permuted, which by chance often lands within 2–3 bits of a
    /// format code; a reading two or more bits worse than the best is that chance and is left out.
    static func readings(_ modules: BitMatrix) -> [Reading] {
        var result: [Reading] = []
        for mirrored in [false, true] {
            var best: (FormatInformation, Int)?
            for copy in 0..<2 {
                if let decoded = FormatInformation.decode(bits(modules, copy: copy, mirrored: mirrored)), decoded.distance < (best?.1 ?? .max) {
                    best = decoded
                }
            }
            if let (format, distance) = best { result.append(Reading(format: format, distance: distance, mirrored: mirrored)) }
        }
        let ranked = result.sorted { $0.distance < $1.distance }
        let plausible = (ranked.first?.distance ?? 0) + 1
        return ranked.filter { $0.distance <= plausible }
    }

    /// The 15 bits of format information copy `copy` (``FormatInformation/position(copy:bit:size:)``) as
    /// `modules` show them, or `mirrored` (transposed), bit 0 the least significant. Model 1 symbols keep
    /// theirs in the same modules.
    static func bits(_ modules: BitMatrix, copy: Int, mirrored: Bool) -> Int {
        var bits = 0
        for i in 0..<15 {
            let p = FormatInformation.position(copy: copy, bit: i, size: modules.width)
            if mirrored ? modules[p.y, p.x] : modules[p.x, p.y] { bits |= 1 << i }
        }
        return bits
    }
}
