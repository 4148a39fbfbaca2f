/// Candidate grids produced in stages, each stage fitted only when the grids before it are used up, so
/// that a symbol decoded from its first grid costs no further fitting. Later stages refine the first
/// one's inputs by less than a module, so they are fitted only once the consumer has marked one of the
/// grids so far as promising: a set whose first grids all missed its timing patterns is a false set
/// (over 1,100 of them in the development corpus, none decoded by a later stage).
struct GridCandidates: Sequence, IteratorProtocol {
    private var stages: [() -> [SamplingGrid]]
    /// The current stage's grids not yet returned, last one next.
    private var pending: [SamplingGrid] = []
    private var fittedFirstStage = false
    /// Whether a grid returned so far was marked promising.
    private(set) var isPromising = false

    init(stages: [() -> [SamplingGrid]]) {
        self.stages = stages.reversed()
    }

    /// Records that a grid returned so far fitted well enough to be worth refining.
    mutating func markPromising() {
        isPromising = true
    }

    mutating func next() -> SamplingGrid? {
        while pending.isEmpty {
            guard !fittedFirstStage || isPromising, let stage = stages.popLast() else { return nil }
            fittedFirstStage = true
            pending = stage().reversed()
        }
        return pending.popLast()
    }
}
