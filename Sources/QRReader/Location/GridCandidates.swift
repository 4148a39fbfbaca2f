/// Candidate grids produced in stages, each stage fitted only when the grids before it are used up, so
/// that a symbol decoded from its first grid costs no further fitting.
struct GridCandidates: Sequence, IteratorProtocol {
    private var stages: [() -> [SamplingGrid]]
    /// The current stage's grids not yet returned, last one next.
    private var pending: [SamplingGrid] = []

    init(stages: [() -> [SamplingGrid]]) {
        self.stages = stages.reversed()
    }

    mutating func next() -> SamplingGrid? {
        while pending.isEmpty {
            guard let stage = stages.popLast() else { return nil }
            pending = stage().reversed()
        }
        return pending.popLast()
    }
}
