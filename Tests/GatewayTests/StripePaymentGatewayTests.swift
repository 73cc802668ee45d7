import Domain
import Foundation
import Gateway
import TestSupport
import Testing

/// Against a real localstripe (started by ./Tools/test). Its quirks (see the payment-provider
/// note): it ignores Idempotency-Key, declines pm_card_chargeCustomerFail on confirm with 402.
@Suite("StripePaymentGateway against localstripe")
struct StripePaymentGatewayTests {
    static let yen = Currency("JPY")!

    func gateway(retry: StripeTransport.RetryPolicy = .standard) throws -> StripePaymentGateway {
        guard let url = ProcessInfo.processInfo.environment["STOREFRONT_TEST_PAYMENT_URL"] else {
            throw TestSetupError("STOREFRONT_TEST_PAYMENT_URL is not set: run the payment tests through ./Tools/test")
        }
        return StripePaymentGateway(baseURL: url, secretKey: "sk_test_storefront", timeout: .seconds(5), retry: retry)
    }

    @Test func createConfirmRetrieveAndRefund() async throws {
        let payments = try gateway()
        let order = UUID()
        let created = try await payments.createPayment(
            amount: Money(amount: 4200, currency: Self.yen), paymentMethod: "pm_card_visa", orderID: order,
            idempotencyKey: "create-\(order)")
        #expect(created.status == .requiresConfirmation)
        #expect(created.amount == Money(amount: 4200, currency: Self.yen))
        let confirmed = try await payments.confirmPayment(id: created.id, idempotencyKey: "confirm-\(order)")
        #expect(confirmed.status == .succeeded)
        #expect(try await payments.payment(id: created.id).status == .succeeded)
        #expect(try await payments.refunds(paymentID: created.id).isEmpty)
        let refund = try await payments.refund(paymentID: created.id, amount: nil, idempotencyKey: "refund-\(order)")
        #expect(refund.amount == Money(amount: 4200, currency: Self.yen) && refund.status == .succeeded)
        #expect(try await payments.refund(id: refund.id) == refund)
        #expect(try await payments.refunds(paymentID: created.id) == [refund])
    }

    @Test func theLongestCallCountsEveryAttemptAndBackoff() throws {
        // PAYMENT_TIMEOUT_SECONDS=10 with Stripe's advice: 3 x 10 s, then 0.5 s and 1 s of backoff.
        let standard = StripePaymentGateway(baseURL: "http://127.0.0.1:1", secretKey: "sk_test_x", timeout: .seconds(10))
        #expect(standard.longestCall == .milliseconds(31_500))
        let once = StripePaymentGateway(
            baseURL: "http://127.0.0.1:1", secretKey: "sk_test_x", timeout: .seconds(2),
            retry: .init(maxAttempts: 1, initialDelay: .seconds(1), maxDelay: .seconds(1)))
        #expect(once.longestCall == .seconds(2))
        let capped = StripePaymentGateway(
            baseURL: "http://127.0.0.1:1", secretKey: "sk_test_x", timeout: .seconds(1),
            retry: .init(maxAttempts: 5, initialDelay: .seconds(1), maxDelay: .seconds(3)))
        #expect(capped.longestCall == .seconds(5 + 1 + 2 + 3 + 3))
    }

    @Test func declinedCardIsAFinalDomainError() async throws {
        let payments = try gateway()
        let order = UUID()
        let created = try await payments.createPayment(
            amount: Money(amount: 1000, currency: Self.yen), paymentMethod: "pm_card_chargeCustomerFail", orderID: order,
            idempotencyKey: "create-\(order)")
        do {
            _ = try await payments.confirmPayment(id: created.id, idempotencyKey: "confirm-\(order)")
            Issue.record("a declining card was charged")
        } catch let error as PaymentError {
            guard case .cardDeclined(let code, _, _) = error else { Issue.record("got \(error)"); return }
            #expect(code == "card_declined")
            #expect(!error.outcomeUnknown)
        }
    }

    @Test func invalidRequestsAreNotRetried() async throws {
        // A retry would wait at least 10 s (half the delay, with jitter): beyond any answer of a
        // loaded machine (one has taken 5 s while the whole suite ran on two cores).
        let payments = try gateway(retry: .init(maxAttempts: 3, initialDelay: .seconds(20), maxDelay: .seconds(20)))
        let started = ContinuousClock.now
        await #expect(throws: PaymentError.self) { try await payments.payment(id: "pi_does_not_exist") }
        #expect(ContinuousClock.now - started < .seconds(10), "a 404 must not be retried with backoff")
        let cancelUnknown = await outcome { try await payments.cancelPayment(id: "pi_nope", idempotencyKey: "k") }
        if case .failure(let error as PaymentError) = cancelUnknown, case .invalidRequest = error {
        } else {
            Issue.record("got \(cancelUnknown)")
        }
    }

    @Test func providerDownIsUnreachableAfterBoundedRetries() async throws {
        let payments = StripePaymentGateway(
            baseURL: "http://127.0.0.1:\(freePort())", secretKey: "sk_test_x", timeout: .seconds(1),
            retry: .init(maxAttempts: 3, initialDelay: .milliseconds(20), maxDelay: .milliseconds(40)))
        let started = ContinuousClock.now
        do {
            _ = try await payments.payment(id: "pi_x")
            Issue.record("reached a port nothing listens on")
        } catch let error as PaymentError {
            guard case .unreachable = error else { Issue.record("got \(error)"); return }
            #expect(error.outcomeUnknown)
        }
        // AsyncHTTPClient keeps retrying a refused connect until the attempt's deadline, so the
        // bound is attempts x timeout plus the backoff (3.1 s here). The whole suite running in
        // parallel on two cores has stretched that to 5 s; unbounded retries would never end.
        #expect(ContinuousClock.now - started < .seconds(10))
    }

    private func outcome<T>(_ body: () async throws -> T) async -> Result<T, any Error> {
        do { return .success(try await body()) } catch { return .failure(error) }
    }
}
