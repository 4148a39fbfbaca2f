/// What one read found, and whether it searched as far as it meant to.
public struct ReadReport: Sendable, Equatable {
    /// Every code found, in the order found, without duplicates.
    public var results: [ReadResult]
    /// Whether the time budget (``ReaderOptions/timeBudget``) ran out while the search still had work to do:
    /// it then stopped with what it had found, and a code it had not reached may have been missed. Reading
    /// again with a larger budget, or a region of interest, may find it.
    public var timedOut: Bool

    public init(results: [ReadResult], timedOut: Bool) {
        self.results = results
        self.timedOut = timedOut
    }
}
