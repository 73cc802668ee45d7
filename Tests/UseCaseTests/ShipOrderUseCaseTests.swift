import Domain
import Foundation
import MockSupport
import Scenes
import Testing
import UseCase

/// How the ship and deliver use cases answer what the fulfilment store says.
@Suite("Shipping an order (use cases)")
struct ShipOrderUseCaseTests {
    static func useCase(_ fulfilment: MockFulfilmentStore) -> OrderUseCase {
        OrderContainer(
            store: MockOrderStore(
                order: Order(
                    id: Fixtures.id(1), customerID: UUID(), status: .paid, lines: [], total: Money(amount: 1, currency: Fixtures.yen),
                    paymentIntentID: nil, declineCode: nil, createdAt: Fixtures.now)),
            refundStore: MockRefundStore(), fulfilment: fulfilment, returns: MockReturnStore(), payments: nil,
            checkoutDeadline: .seconds(10), actionTimeout: .seconds(900), awaitingPaymentLimit: 5, currency: Fixtures.yen,
            invoiceIssuer: nil,
            system: Fixtures.system
        ).useCase
    }

    static let input = OrderShipInput(id: Fixtures.id(1), carrier: "Yamato", trackingNumber: "1234-5678", lines: nil)

    @Test func eachRefusalIsItsOutcome() async throws {
        var fulfilment = MockFulfilmentStore()
        fulfilment.ship = { _ in throw FulfilmentError.notShippable(.shipped) }
        #expect(try await Self.useCase(fulfilment).ship(Self.input) == .orderNotShippable(orderStatus: "shipped"))
        fulfilment.ship = { _ in throw FulfilmentError.beyondOrdered(index: 1, left: 2) }
        #expect(
            try await Self.useCase(fulfilment).ship(Self.input)
                == .beyondOrdered(errors: [FieldError("lines[1].quantity", "must be at most 2, what is left to ship")]))
        fulfilment.ship = { _ in throw FulfilmentError.orderNotFound(Fixtures.id(1)) }
        #expect(try await Self.useCase(fulfilment).ship(Self.input) == .notFound(id: Fixtures.id(1)))
    }

    @Test func theLinesSentAreTheLinesShipped() async throws {
        var fulfilment = MockFulfilmentStore()
        fulfilment.ship = { lines in
            Shipment(
                id: Fixtures.id(9), orderID: Fixtures.id(1), carrier: "Yamato", trackingNumber: "1", lines: lines ?? [],
                createdAt: Fixtures.now, deliveredAt: nil)
        }
        let line = ShipmentLineInput(variantID: Fixtures.id(3), quantity: 2)
        let input = OrderShipInput(id: Fixtures.id(1), carrier: "Yamato", trackingNumber: "1", lines: [line])
        guard case .shipped(let shipment) = try await Self.useCase(fulfilment).ship(input) else {
            Issue.record("not shipped")
            return
        }
        #expect(shipment.lines == [ShipmentLine(variantID: Fixtures.id(3), quantity: 2)])
    }

    /// A variant named twice is refused, as a refund refuses it, before the store is asked: a
    /// shipment merged the two lines and a return refused them by a limit neither broke.
    @Test func aVariantNamedTwiceIsRefusedWhereverItComes() async throws {
        var fulfilment = MockFulfilmentStore()
        fulfilment.ship = { _ in
            Issue.record("the store was asked")
            throw FulfilmentError.orderNotFound(Fixtures.id(1))
        }
        let line = ShipmentLineInput(variantID: Fixtures.id(3), quantity: 1)
        let other = ShipmentLineInput(variantID: Fixtures.id(4), quantity: 1)
        let twice = OrderShipInput(id: Fixtures.id(1), carrier: "Yamato", trackingNumber: "1", lines: [line, other, line])
        await #expect(throws: ValidationError([FieldError("lines[2].variant_id", "appears twice")])) {
            try await Self.useCase(fulfilment).ship(twice)
        }
        let returned = ReturnLineInput(variantID: Fixtures.id(3), quantity: 1)
        let asked = OrderRequestReturnInput(customerID: UUID(), id: Fixtures.id(1), reason: "size", lines: [returned, returned])
        await #expect(throws: ValidationError([FieldError("lines[1].variant_id", "appears twice")])) {
            try await Self.useCase(fulfilment).requestReturn(asked)
        }
    }

    @Test func deliveringTwiceOrAnUnknownShipmentIsRefused() async throws {
        var fulfilment = MockFulfilmentStore()
        #expect(try await Self.useCase(fulfilment).deliver(OrderDeliverInput(id: Fixtures.id(5))) == .notFound(id: Fixtures.id(5)))
        fulfilment.deliver = { _ in throw FulfilmentError.alreadyDelivered }
        #expect(try await Self.useCase(fulfilment).deliver(OrderDeliverInput(id: Fixtures.id(5))) == .alreadyDelivered)
    }
}
