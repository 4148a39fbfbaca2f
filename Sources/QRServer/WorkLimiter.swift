import Dispatch
import Synchronization

/// Bounds the CPU and memory that image work takes, whatever the number of clients.
///
/// A request is *admitted* before its body is read: at most `running + queued` requests hold a body in
/// memory at once, and one more is answered 503 at once. An admitted request then waits up to `timeout` for
/// one of `running` job slots (else 503) and does its work on a Dispatch thread, so that long decodes never
/// block Swift's cooperative thread pool, which serves every other request.
final class WorkLimiter: Sendable {
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var admitted = 0
        var running = 0
        var waiters: [Waiter] = []
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())
    private let maximumRunning: Int
    private let maximumAdmitted: Int
    private let timeout: Duration

    init(running: Int, queued: Int, timeout: Duration) {
        maximumRunning = max(1, running)
        maximumAdmitted = max(1, running) + max(0, queued)
        self.timeout = timeout
    }

    /// Runs `body` as an admitted request, or throws 503 when too many are in progress.
    func withAdmission<T>(_ body: () async throws -> T) async throws -> T {
        let admitted = state.withLock { state in
            guard state.admitted < maximumAdmitted else { return false }
            state.admitted += 1
            return true
        }
        guard admitted else { throw APIError.busy(retryAfterSeconds: retryAfter) }
        defer { state.withLock { $0.admitted -= 1 } }
        return try await body()
    }

    /// Runs `work` on a Dispatch thread once a job slot is free, or throws 503 after waiting `timeout`.
    func perform<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        guard await acquireSlot() else { throw APIError.busy(retryAfterSeconds: retryAfter) }
        defer { releaseSlot() }
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(with: Result { try work() })
            }
        }
    }

    /// Seconds a refused client is told to wait: about one queue timeout.
    private var retryAfter: Int { max(1, Int(timeout.components.seconds)) }

    private func acquireSlot() async -> Bool {
        await withCheckedContinuation { continuation in
            let id: UInt64? = state.withLock { state in
                if state.running < maximumRunning {
                    state.running += 1
                    return nil
                }
                state.nextID += 1
                state.waiters.append(Waiter(id: state.nextID, continuation: continuation))
                return state.nextID
            }
            guard let id else {
                continuation.resume(returning: true)
                return
            }
            let timeout = self.timeout
            Task {
                try? await Task.sleep(for: timeout)
                self.expire(id)
            }
        }
    }

    /// Hands the slot to the longest-waiting request, or frees it.
    private func releaseSlot() {
        let next: CheckedContinuation<Bool, Never>? = state.withLock { state in
            guard !state.waiters.isEmpty else {
                state.running -= 1
                return nil
            }
            return state.waiters.removeFirst().continuation
        }
        next?.resume(returning: true)
    }

    /// Gives up on a waiter that is still waiting after the timeout.
    private func expire(_ id: UInt64) {
        let expired: CheckedContinuation<Bool, Never>? = state.withLock { state in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return state.waiters.remove(at: index).continuation
        }
        expired?.resume(returning: false)
    }

    /// Requests admitted and slots in use, for tests and health checks.
    var load: (admitted: Int, running: Int) {
        state.withLock { ($0.admitted, $0.running) }
    }
}
