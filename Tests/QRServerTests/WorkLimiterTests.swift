import Dispatch
import Foundation
import Testing
@testable import QRServer

@Suite("Work limiter")
struct WorkLimiterTests {
    /// A job that runs until the test lets it finish.
    private final class Gate: Sendable {
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
    }

    @Test func runsJobsAndReportsLoad() async throws {
        let limiter = WorkLimiter(running: 2, queued: 1, timeout: .seconds(5))
        let value = try await limiter.withAdmission {
            #expect(limiter.load.admitted == 1)
            return try await limiter.perform { 6 * 7 }
        }
        #expect(value == 42)
        #expect(limiter.load.admitted == 0 && limiter.load.running == 0)
    }

    @Test func turnsAwayRequestsBeyondTheQueueAndAfterTheWait() async throws {
        let limiter = WorkLimiter(running: 1, queued: 1, timeout: .zero)
        let gate = Gate()
        let busy = Task {
            try await limiter.withAdmission {
                try await limiter.perform { gate.started.signal(); gate.release.wait() }
            }
        }
        await waitForSignal(gate.started)
        // The only slot is taken and the wait is zero: an admitted request gets 503 after waiting.
        await #expect(throws: APIError.busy(retryAfterSeconds: 1)) {
            try await limiter.withAdmission { try await limiter.perform { 1 } }
        }
        // Two admitted (one running, one waiting) is the most; a third is refused at once.
        let waiting = Task { try await limiter.withAdmission { try await Task.sleep(for: .seconds(60)) } }
        while limiter.load.admitted < 2 { await Task.yield() }
        await #expect(throws: APIError.self) { try await limiter.withAdmission { 1 } }
        waiting.cancel()
        _ = try? await waiting.value
        gate.release.signal()
        try await busy.value
        #expect(limiter.load.admitted == 0 && limiter.load.running == 0)
    }

    @Test func aFreedSlotGoesToTheWaitingRequest() async throws {
        let limiter = WorkLimiter(running: 1, queued: 4, timeout: .seconds(600))
        let gate = Gate()
        let first = Task { try await limiter.perform { gate.started.signal(); gate.release.wait(); return 1 } }
        await waitForSignal(gate.started)
        let second = Task { try await limiter.perform { 2 } }
        gate.release.signal()
        #expect(try await first.value == 1)
        #expect(try await second.value == 2)
        #expect(limiter.load.running == 0)
    }

    @Test func errorsFromJobsPassThrough() async {
        let limiter = WorkLimiter(running: 1, queued: 0, timeout: .seconds(1))
        await #expect(throws: APIError.badRequest("x", "y")) {
            try await limiter.perform { () throws -> Int in throw APIError.badRequest("x", "y") }
        }
        #expect(limiter.load.running == 0)
    }

    /// Waits for a semaphore without blocking the cooperative pool.
    private func waitForSignal(_ semaphore: DispatchSemaphore) async {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                semaphore.wait()
                continuation.resume()
            }
        }
    }
}
