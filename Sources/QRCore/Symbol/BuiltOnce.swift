import Synchronization

/// Values built on first use and shared across threads afterwards, one per key: symbol templates, which a
/// reader needs for every candidate it decodes.
final class BuiltOnce<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let values = Mutex<[Key: Value]>([:])

    /// The value for `key`, built by `build` the first time it is asked for.
    func value(for key: Key, build: () -> Value) -> Value {
        values.withLock { values in
            if let value = values[key] { return value }
            let value = build()
            values[key] = value
            return value
        }
    }
}
