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
        let refund = try await payments.refund(paymentID: created.id, amount: nil, idempotencyKey: "refund-\(order)")
        #expect(refund.amount == Money(amount: 4200, currency: Self.yen) && refund.succeeded)
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
        // A retry would wait at least 2.5 s: far beyond any answer of a loaded machine.
        let payments = try gateway(retry: .init(maxAttempts: 3, initialDelay: .seconds(5), maxDelay: .seconds(5)))
        let started = ContinuousClock.now
        await #expect(throws: PaymentError.self) { try await payments.payment(id: "pi_does_not_exist") }
        #expect(ContinuousClock.now - started < .seconds(2), "a 404 must not be retried with backoff")
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
        // bound is attempts x timeout plus the backoff (3.1 s here), with room for a loaded machine.
        #expect(ContinuousClock.now - started < .seconds(5))
    }

    private func outcome<T>(_ body: () async throws -> T) async -> Result<T, any Error> {
        do { return .success(try await body()) } catch { return .failure(error) }
    }
}
