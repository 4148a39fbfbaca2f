import Synchronization

/// A mailbox for one frame between a producer that never waits and a consumer that may be slow: a new frame
/// replaces one still waiting, and the replaced frame counts as skipped. At most one frame is ever pending.
final class LatestFrameSlot: Sendable {
    private enum End {
        case finished
        case failed(any Error)
    }

    private struct State {
        var pending: VideoFrame?
        var waiter: CheckedContinuation<VideoFrame?, any Error>?
        var end: End?
        var cancelled = false
        var received = 0
        var skipped = 0
    }

    private let state = Mutex(State())

    /// Frames put so far, and how many of them were replaced before being taken.
    var counts: (received: Int, skipped: Int) { state.withLock { ($0.received, $0.skipped) } }

    /// Hands `frame` to a waiting consumer, or leaves it pending in place of any older one.
    func put(_ frame: VideoFrame) {
        let waiter = state.withLock { state -> CheckedContinuation<VideoFrame?, any Error>? in
            state.received += 1
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            if state.pending != nil { state.skipped += 1 }
            state.pending = frame
            return nil
        }
        waiter?.resume(returning: frame)
    }

    /// No more frames will come; `error` says why, if the producer failed. A pending frame is still taken first.
    func finish(throwing error: (any Error)? = nil) {
        let waiter = state.withLock { state -> CheckedContinuation<VideoFrame?, any Error>? in
            guard state.end == nil else { return nil }
            state.end = error.map { .failed($0) } ?? .finished
            guard let waiter = state.waiter else { return nil }
            state.waiter = nil
            state.end = .finished
            return waiter
        }
        if let error { waiter?.resume(throwing: error) } else { waiter?.resume(returning: nil) }
    }

    /// The pending frame, waiting for one if there is none; nil once the producer has finished and nothing is
    /// pending, or when the task is cancelled. A producer's error is thrown once, after the last frame.
    func take() async throws -> VideoFrame? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<VideoFrame?, any Error>) in
                let ready: Result<VideoFrame?, any Error>? = state.withLock { state in
                    if let frame = state.pending {
                        state.pending = nil
                        return .success(frame)
                    }
                    switch state.end {
                    case let .failed(error)?:
                        state.end = .finished
                        return .failure(error)
                    case .finished?:
                        return .success(nil)
                    case nil:
                        if state.cancelled { return .success(nil) }
                        state.waiter = continuation
                        return nil
                    }
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<VideoFrame?, any Error>? in
                state.cancelled = true
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: nil)
        }
    }
}
