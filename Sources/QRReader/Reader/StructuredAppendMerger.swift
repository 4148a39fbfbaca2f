import QRCore

/// Joins Structured Append symbols found in one image into one result per complete message; the symbols
/// stay available as the result's `parts`. Incomplete sequences are left as separate results.
enum StructuredAppendMerger {
    static func merge(_ results: [ReadResult]) -> [ReadResult] {
        var output: [ReadResult] = []
        var groups: [String: [ReadResult]] = [:]
        var order: [String] = []
        for result in results {
            guard let header = result.structuredAppend else {
                output.append(result)
                continue
            }
            let key = "\(header.count)/\(header.parity)"
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(result)
        }
        for key in order {
            guard let group = groups[key], let count = group.first?.structuredAppend?.count else { continue }
            let indices = Set(group.compactMap { $0.structuredAppend?.index })
            guard indices == Set(0..<count), group.count == count else {
                output += group
                continue
            }
            let parts = group.sorted { ($0.structuredAppend?.index ?? 0) < ($1.structuredAppend?.index ?? 0) }
            var merged = parts[0]
            merged.bytes = parts.flatMap(\.bytes)
            // Re-read the joined bytes when the parts shared one guessed charset, so that characters split
            // across symbols join up; otherwise join the texts.
            if let charset = parts[0].charset, parts.allSatisfy({ $0.charset == charset }),
               let text = charset.decode(merged.bytes), parts.allSatisfy({ $0.eciAssignments.isEmpty && $0.fnc1 == nil }) {
                merged.text = text
            } else {
                merged.text = parts.map(\.text).joined()
            }
            merged.parts = parts
            merged.correctedCodewords = parts.reduce(0) { $0 + $1.correctedCodewords }
            output.append(merged)
        }
        return output
    }
}
