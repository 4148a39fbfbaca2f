/// The seed apps' rule for what to do with the codes found in a picture.
public enum Selection<Item: Sendable>: Sendable {
    /// Nothing found: say so.
    case none
    /// Exactly one: go straight to it.
    case single(Item)
    /// Several: show them all and ask which one.
    case several([Item])

    public init(_ items: [Item]) {
        switch items.count {
        case 0: self = .none
        case 1: self = .single(items[0])
        default: self = .several(items)
        }
    }

    /// The item when there is exactly one.
    public var single: Item? {
        if case let .single(item) = self { return item }
        return nil
    }
}
