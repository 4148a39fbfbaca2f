import QRCore

extension ReadResult {
    /// `results` with every complete Structured Append message joined into one result, the rest as they were.
    /// The reader joins the parts it finds in one image; this joins parts read from several (a message printed
    /// as several codes and photographed one at a time, or seen in different frames of a video). A joined
    /// result has the message's bytes and text, its symbols in order as `parts`, and the first part's
    /// position; a part read more than once counts once. Parts of an incomplete message stay separate.
    public static func joiningStructuredAppend(_ results: [ReadResult]) -> [ReadResult] {
        StructuredAppendMerger.merge(results)
    }
}

/// Joins Structured Append symbols into one result per complete message; the symbols stay available as
/// the result's `parts`. Incomplete sequences are left as separate results.
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
            // The first reading of each part: the same symbol read again (in another photo) adds nothing.
            var byIndex: [Int: ReadResult] = [:]
            for result in group {
                if let index = result.structuredAppend?.index, byIndex[index] == nil { byIndex[index] = result }
            }
            guard Set(byIndex.keys) == Set(0..<count) else {
                output += group
                continue
            }
            let parts = (0..<count).compactMap { byIndex[$0] }
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
