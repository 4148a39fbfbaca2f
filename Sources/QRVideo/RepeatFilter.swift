/// Decides which codes are news in a stream, frame by frame: a text is out of sight from the first decoded
/// frame that does not show it, and it is news when it first appears, and again when it reappears after
/// more than `window` of stream time since it was last seen. A code held in view is reported once, however
/// short the window: with a zero window, a code is reported again after any frame without it.
public struct RepeatFilter: Sendable {
    /// How long a text must be out of sight before it counts as new again.
    public let window: Duration
    private var lastSeen: [String: Duration] = [:]
    /// The texts the last decoded frame showed: still in sight, whatever the window.
    private var inSight: Set<String> = []

    /// A filter that has seen nothing yet.
    public init(window: Duration) {
        self.window = window
    }

    /// Records the texts one decoded frame at stream time `time` shows (none, for a frame without codes,
    /// which puts every text out of sight); for each, in order, whether it is news. A text twice in one
    /// frame is news at most once.
    public mutating func admit(_ texts: [String], at time: Duration) -> [Bool] {
        // Texts out of sight for longer than the window are forgotten, so memory follows what is in view.
        lastSeen = lastSeen.filter { inSight.contains($0.key) || time - $0.value <= window }
        var shown = Set<String>()
        let news = texts.map { text in
            let isNew = !shown.contains(text) && lastSeen[text] == nil
            shown.insert(text)
            lastSeen[text] = time
            return isNew
        }
        inSight = shown
        return news
    }
}
