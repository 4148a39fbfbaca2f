/// Decides which codes are news in a stream: a text seen again within `window` of stream time after it was
/// last seen is the same sighting and is not reported again. A code held in view is thus reported once, and
/// again only after it has been out of sight for longer than the window.
public struct RepeatFilter: Sendable {
    /// How long a text must be out of sight before it counts as new again.
    public let window: Duration
    private var lastSeen: [String: Duration] = [:]

    /// A filter that has seen nothing yet.
    public init(window: Duration) {
        self.window = window
    }

    /// Records that `text` was seen at stream time `time`; true if that makes it news.
    public mutating func admit(_ text: String, at time: Duration) -> Bool {
        // Texts out of sight for longer than the window are forgotten, so memory follows what is in view.
        lastSeen = lastSeen.filter { time - $0.value <= window }
        let isNew = lastSeen[text] == nil
        lastSeen[text] = time
        return isNew
    }
}
