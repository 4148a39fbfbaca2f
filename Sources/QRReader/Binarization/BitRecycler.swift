/// The bits of a binary image that a read no longer needs, kept for its next image of the same size. The
/// read's peak memory is then one binary image lower: in a process that reads large photos one after
/// another, the allocator keeps those pages mapped rather than handing them back and faulting them in
/// afresh for every full-scale pass.
final class BitRecycler {
    private var spare: [UInt64] = []

    /// Keeps `image`'s words, which nothing else may hold once its caller drops it.
    func recycle(_ image: BinaryImage) { spare = image.words }

    /// The words kept, given up, when they are `count` words; nil otherwise (they stay for an image of their size).
    func take(count: Int) -> [UInt64]? {
        guard spare.count == count, count > 0 else { return nil }
        defer { spare = [] }
        return spare
    }
}
