import Domain
import Foundation
import MockSupport
import Scenes
import Testing
import UseCase

@Suite("Cart use case on mock gateways")
struct CartUseCaseTests {
    let mug = Fixtures.item(1, stock: 5)
    let pen = Fixtures.item(2, stock: 50)
    let customer = UUID()

    func make(items: [Item]) -> (CartUseCase, MockCartStore) {
        let store = MockCartStore(items: items)
        let catalog = MockItemStore { stubs in stubs.item = { id in items.first { $0.id == id } } }
        return (CartContainer(store: store, catalog: catalog, currency: Fixtures.yen).useCase, store)
    }

    @Test func emptyCartHasAZeroSubtotalInTheShopCurrency() async throws {
        let (useCase, _) = make(items: [])
        let cart = try await useCase.cart(customerID: customer)
        #expect(cart.lines.isEmpty && cart.itemCount == 0)
        #expect(try cart.subtotal() == Money(amount: 0, currency: Fixtures.yen))
    }

    @Test func totalsAreExactIntegerSums() async throws {
        let (useCase, _) = make(items: [mug, pen])
        _ = try await useCase.setQuantity(customerID: customer, itemID: mug.id, quantity: 3)
        let cart = try await useCase.setQuantity(customerID: customer, itemID: pen.id, quantity: 2)
        #expect(cart.itemCount == 5)
        #expect(try cart.lines.map { try $0.lineTotal().amount } == [3600, 2400])
        #expect(try cart.subtotal().amount == 6000)
    }

    @Test func zeroRemovesAndQuantityIsBounded() async throws {
        let (useCase, store) = make(items: [mug])
        _ = try await useCase.setQuantity(customerID: customer, itemID: mug.id, quantity: 2)
        #expect(try await useCase.setQuantity(customerID: customer, itemID: mug.id, quantity: 0).lines.isEmpty)
        #expect(store.calls.contains("remove"))
        for bad in [-1, 100] {
            await #expect(throws: ValidationError([FieldError("quantity", "must be between 0 and 99")])) {
                try await useCase.setQuantity(customerID: customer, itemID: mug.id, quantity: bad)
            }
        }
    }

    @Test func moreThanTheStockNamesWhatIsAvailable() async throws {
        let (useCase, store) = make(items: [mug])
        await #expect(throws: CartError.insufficientStock(itemID: mug.id, available: 5)) {
            try await useCase.setQuantity(customerID: customer, itemID: mug.id, quantity: 6)
        }
        #expect(!store.calls.contains { $0.hasPrefix("set") })
    }

    @Test func unknownItemIsNotFound() async throws {
        let (useCase, _) = make(items: [])
        let id = UUID()
        await #expect(throws: CartError.itemNotFound(id)) { try await useCase.setQuantity(customerID: customer, itemID: id, quantity: 1) }
    }

    @Test func currenciesDoNotMix() async throws {
        var dollarPen = pen
        dollarPen.price = Money(amount: 300, currency: Currency("USD")!)
        let (useCase, _) = make(items: [mug, dollarPen])
        // Not even into an empty cart: a cart is priced in the shop's currency.
        await #expect(throws: CartError.currencyMismatch(cart: Fixtures.yen, item: Currency("USD")!)) {
            try await useCase.setQuantity(customerID: customer, itemID: dollarPen.id, quantity: 1)
        }
        _ = try await useCase.setQuantity(customerID: customer, itemID: mug.id, quantity: 1)
        await #expect(throws: CartError.currencyMismatch(cart: Fixtures.yen, item: Currency("USD")!)) {
            try await useCase.setQuantity(customerID: customer, itemID: dollarPen.id, quantity: 1)
        }
    }

    @Test func aLineRepricedInAnotherCurrencyIsUnavailableNotAnError() throws {
        let dollars = CartLine(itemID: UUID(), name: "Pen", unitPrice: Money(amount: 300, currency: Currency("USD")!), quantity: 2)
        let yen = CartLine(itemID: UUID(), name: "Mug", unitPrice: Money(amount: 1200, currency: Fixtures.yen), quantity: 1)
        let cart = Cart(lines: [dollars, yen], currency: Fixtures.yen)
        #expect(cart.unavailableLines == [dollars])
        #expect(try cart.subtotal() == Money(amount: 1200, currency: Fixtures.yen))
    }

    @Test func customersHaveSeparateCarts() async throws {
        let (useCase, _) = make(items: [mug])
        _ = try await useCase.setQuantity(customerID: customer, itemID: mug.id, quantity: 1)
        #expect(try await useCase.cart(customerID: UUID()).lines.isEmpty)
    }
}
