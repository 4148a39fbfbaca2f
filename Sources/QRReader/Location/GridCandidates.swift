/// Candidate grids produced in stages, each stage fitted only when the grids before it are used up, so
/// that a symbol decoded from its first grid costs no further fitting. Later stages refine the first
/// one's inputs by less than a module, so they are fitted only once the consumer has marked one of the
/// grids so far as promising: a set whose first grids all missed its timing patterns is a false set
/// (over 1,100 of them in the development corpus, none decoded by a later stage).
///
/// A `last` stage follows the others whether or not any grid was marked: its grids are fitted by other
/// means than the first stage's and can time well where those do not (a symbol bent round a bottle).
struct GridCandidates: Sequence, IteratorProtocol {
    private var stages: [() -> [SamplingGrid]]
    private var last: (() -> [SamplingGrid])?
    /// The current stage's grids not yet returned, last one next.
    private var pending: [SamplingGrid] = []
    private var fittedFirstStage = false
    /// Whether a grid returned so far was marked promising.
    private(set) var isPromising = false
    /// Whether the grids returned now are the `last` stage's.
    private(set) var isInLastStage = false

    init(stages: [() -> [SamplingGrid]], last: (() -> [SamplingGrid])? = nil) {
        self.stages = stages.reversed()
        self.last = last
    }

    /// Records that a grid returned so far fitted well enough to be worth refining.
    mutating func markPromising() {
        isPromising = true
    }

    mutating func next() -> SamplingGrid? {
        while pending.isEmpty {
            if !fittedFirstStage || isPromising, let stage = stages.popLast() {
                fittedFirstStage = true
                pending = stage().reversed()
            } else if let stage = last {
                stages = []
                last = nil
                isInLastStage = true
                pending = stage().reversed()
            } else {
                return nil
            }
        }
        return pending.popLast()
    }
}
