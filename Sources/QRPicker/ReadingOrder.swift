import QRCore

/// Orders codes as a person reads them: rows from top to bottom, each row left to right. Codes whose
/// centres are closer vertically than half their height share a row.
public enum ReadingOrder {
    public static func sorted<Item>(_ items: [Item], corners: (Item) -> Quadrilateral) -> [Item] {
        let placed = items.map { (item: $0, quad: corners($0)) }.sorted { $0.quad.center.y < $1.quad.center.y }
        var rows: [[(item: Item, quad: Quadrilateral)]] = []
        for entry in placed {
            if let last = rows.last?.last,
               abs(entry.quad.center.y - last.quad.center.y) < min(entry.quad.boundingRect.height, last.quad.boundingRect.height) / 2 {
                rows[rows.count - 1].append(entry)
            } else {
                rows.append([entry])
            }
        }
        return rows.flatMap { $0.sorted { $0.quad.center.x < $1.quad.center.x }.map(\.item) }
    }
}
