import Testing

@testable import UseCase

/// A checkout's answer: the payment's outcome when it comes before the deadline, the fallback
/// (pending) only once the deadline has passed. The timer used to resume with the fallback when it
/// was cancelled because the payment had answered, racing the payment's own answer: a paid order
/// was now and then answered 202 pending.
@Suite("Checkout deadline")
struct CheckoutDeadlineTests {
    @Test func aPaymentThatAnswersBeforeTheDeadlineIsTheAnswerEveryTime() async throws {
        // Many at once, each payment answering while its timer sleeps, as checkouts do.
        let fallbacks = try await withThrowingTaskGroup(of: Bool.self) { group in
            for round in 0..<4000 {
                group.addTask {
                    let payment = Task<Int, any Error> {
                        try await Task.sleep(for: .microseconds(round % 7 * 50))
                        return round
                    }
                    return try await OrderCheckout.first(of: payment, orAfter: .seconds(60), -1) != round
                }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(fallbacks == 0, "\(fallbacks) of 4000 paid checkouts answered pending")
    }

    @Test func theFallbackComesOnceTheDeadlinePassed() async throws {
        let payment = Task<Int, any Error> {
            try await Task.sleep(for: .seconds(30))
            return 1
        }
        let started = ContinuousClock.now
        #expect(try await OrderCheckout.first(of: payment, orAfter: .milliseconds(50), -1) == -1)
        #expect(ContinuousClock.now - started < .seconds(10))
        payment.cancel()
    }
}
