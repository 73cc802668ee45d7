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

    func make(
        items: [Item], taxPolicy: TaxPolicy = TaxPolicy(), shipping: MockShippingOffers = MockShippingOffers(),
        addresses: MockAddressStore = MockAddressStore(), offSale: Set<UUID> = []
    ) -> (CartUseCase, MockCartStore) {
        let store = MockCartStore(items: items, offSale: offSale)
        let catalog = MockItemStore { stubs in
            stubs.item = { id in items.first { $0.id == id } }
            stubs.itemOfVariant = { id in items.first { $0.variants.contains { $0.id == id } } }
        }
        return (
            CartContainer(
                store: store, catalog: catalog, currency: Fixtures.yen, addresses: addresses, shipping: shipping, taxPolicy: taxPolicy,
                system: Fixtures.system
            ).useCase, store
        )
    }

    /// Sets a line's quantity; the cart it answers, or the other outcome as an error to expect.
    func set(_ useCase: CartUseCase, _ item: UUID, _ quantity: Int, for customer: UUID? = nil) async throws -> CartSetOutcome {
        try await useCase.set(CartSetInput(customerID: customer ?? self.customer, itemID: item, quantity: quantity))
    }

    func cart(_ outcome: CartSetOutcome) throws -> CartView {
        guard case .cart(let view) = outcome else { throw UnexpectedOutcome(outcome: "\(outcome)") }
        return view
    }

    struct UnexpectedOutcome: Error { let outcome: String }

    @Test func emptyCartHasAZeroSubtotalInTheShopCurrency() async throws {
        let (useCase, _) = make(items: [])
        guard case .cart(let cart) = try await useCase.show(CartShowInput(customerID: customer, addressID: nil)) else {
            throw UnexpectedOutcome(outcome: "no cart")
        }
        #expect(cart.lines.isEmpty && cart.itemCount == 0)
        #expect(cart.subtotal == Money(amount: 0, currency: Fixtures.yen))
    }

    @Test func totalsAreExactIntegerSums() async throws {
        let (useCase, _) = make(items: [mug, pen])
        _ = try await set(useCase, mug.id, 3)
        let cart = try cart(try await set(useCase, pen.id, 2))
        #expect(cart.itemCount == 5)
        #expect(cart.lines.map(\.lineTotal.amount) == [3600, 2400])
        #expect(cart.subtotal.amount == 6000)
    }

    /// The cart is taxed as its checkout would be: with prices that exclude tax, the total adds it.
    @Test func theCartIsTaxedAsItsCheckoutWouldBe() async throws {
        for (policy, total) in [(TaxPolicy(), 3600), (TaxPolicy(pricesIncludeTax: false, rounding: .floor), 3960)] {
            let (useCase, _) = make(items: [mug], taxPolicy: policy)
            let cart = try cart(try await set(useCase, mug.id, 3))
            let expected = try OrderTotals.compute(
                lines: [(.standard, Money(amount: 3600, currency: Fixtures.yen))], shippingFee: Money(amount: 0, currency: Fixtures.yen),
                policy: policy)
            #expect(cart.taxLines == expected.taxLines && cart.total == expected.total && cart.total.amount == Int64(total))
            #expect(cart.pricesIncludeTax == policy.pricesIncludeTax && cart.subtotal.amount == 3600)
        }
    }

    @Test func zeroRemovesAndQuantityIsBounded() async throws {
        let (useCase, store) = make(items: [mug])
        _ = try await set(useCase, mug.id, 2)
        #expect(try cart(try await set(useCase, mug.id, 0)).lines.isEmpty)
        #expect(store.calls.contains("remove"))
        for bad in [-1, 100] {
            let error = await #expect(throws: ValidationError.self) {
                try await useCase.set(CartSetInput.Unchecked(customerID: customer, itemID: mug.id, quantity: bad).validated())
            }
            #expect(error?.fields.map(\.field) == ["quantity"])
        }
    }

    @Test func moreThanTheStockNamesWhatIsAvailable() async throws {
        let (useCase, store) = make(items: [mug])
        #expect(try await set(useCase, mug.id, 6) == .insufficientStock(available: 5, itemID: mug.id, variantID: mug.variants[0].id))
        #expect(!store.calls.contains { $0.hasPrefix("set") })
    }

    @Test func aNewLinePastTheMostACartHoldsIsRefusedAndAHeldOneStillChanges() async throws {
        let items = (0...Cart.maxLines).map { Fixtures.item($0 + 10, stock: 5) }
        let (useCase, _) = make(items: items)
        for item in items.dropLast() { _ = try cart(try await set(useCase, item.id, 1)) }
        #expect(try await set(useCase, items.last!.id, 1) == .cartFull(limit: Cart.maxLines))
        #expect(try cart(try await set(useCase, items[0].id, 2)).itemCount == Cart.maxLines + 1)
    }

    /// The catalog showed the variant, but the staff removed it before the line was written.
    @Test func aVariantRemovedWhileBeingCartedIsNotFound() async throws {
        let shirt = Fixtures.shirt(stock: 2)
        let (useCase, store) = make(items: [shirt, mug], offSale: [shirt.variants[0].id, mug.variants[0].id])
        let outcome = try await useCase.setVariant(
            CartSetVariantInput(customerID: customer, variantID: shirt.variants[0].id, quantity: 1))
        #expect(outcome == .variantNotFound(variantID: shirt.variants[0].id))
        #expect(try await set(useCase, mug.id, 1) == .itemNotFound(itemID: mug.id))
        #expect(try await store.lines(customerID: customer).isEmpty)
    }

    @Test func unknownItemIsNotFound() async throws {
        let (useCase, _) = make(items: [])
        let id = UUID()
        #expect(try await set(useCase, id, 1) == .itemNotFound(itemID: id))
    }

    @Test func currenciesDoNotMix() async throws {
        let dollarPen = Fixtures.item(2, stock: 50, price: Money(amount: 300, currency: Currency("USD")!))
        let (useCase, _) = make(items: [mug, dollarPen])
        // Not even into an empty cart: a cart is priced in the shop's currency.
        #expect(try await set(useCase, dollarPen.id, 1) == .currencyMismatch(cart: "JPY", item: "USD"))
        _ = try await set(useCase, mug.id, 1)
        #expect(try await set(useCase, dollarPen.id, 1) == .currencyMismatch(cart: "JPY", item: "USD"))
    }

    @Test func aLineRepricedInAnotherCurrencyIsUnavailableNotAnError() throws {
        let dollars = CartLine(
            itemID: UUID(), variantID: UUID(), sku: "PEN", name: "Pen", unitPrice: Money(amount: 300, currency: Currency("USD")!),
            quantity: 2)
        let yen = CartLine(
            itemID: UUID(), variantID: UUID(), sku: "MUG", name: "Mug", unitPrice: Money(amount: 1200, currency: Fixtures.yen),
            quantity: 1)
        let cart = Cart(lines: [dollars, yen], currency: Fixtures.yen)
        #expect(cart.unavailableLines == [dollars])
        #expect(try cart.totals(policy: TaxPolicy()).subtotal == Money(amount: 1200, currency: Fixtures.yen))
        let view = try CartView(cart, taxPolicy: TaxPolicy())
        #expect(view.unavailableItemIDs == [dollars.itemID] && view.unavailableVariantIDs == [dollars.variantID])
        #expect(view.subtotal.amount == 1200 && view.itemCount == 3)
    }

    @Test func anItemWithSeveralVariantsIsCartedByVariant() async throws {
        let shirt = Fixtures.shirt(stock: 2)
        let (useCase, store) = make(items: [shirt])
        #expect(
            try await set(useCase, shirt.id, 1) == .variantRequired(itemID: shirt.id, count: 2, variantIDs: shirt.variants.map(\.id)))
        let small = shirt.variants[0]
        let medium = shirt.variants[1]
        func put(_ variant: UUID, _ quantity: Int) async throws -> CartSetVariantOutcome {
            try await useCase.setVariant(CartSetVariantInput(customerID: customer, variantID: variant, quantity: quantity))
        }
        #expect(try await put(small.id, 3) == .insufficientStock(available: 2, itemID: shirt.id, variantID: small.id))
        _ = try await put(small.id, 2)
        guard case .cart(let cart) = try await put(medium.id, 1) else { throw UnexpectedOutcome(outcome: "no cart") }
        #expect(cart.lines.map(\.variantID) == [small.id, medium.id] && cart.lines.map(\.sku) == ["TEE-S", "TEE-M"])
        #expect(cart.lines.map(\.options) == [[VariantOption(name: "size", value: "S")], [VariantOption(name: "size", value: "M")]])
        let unknown = UUID()
        #expect(try await put(unknown, 1) == .variantNotFound(variantID: unknown))
        guard case .cart(let fewer) = try await put(small.id, 0) else { throw UnexpectedOutcome(outcome: "no cart") }
        #expect(fewer.lines.map(\.variantID) == [medium.id])
        guard case .cart(let empty) = try await useCase.remove(CartRemoveInput(customerID: customer, itemID: shirt.id)) else {
            throw UnexpectedOutcome(outcome: "no cart")
        }
        #expect(empty.lines.isEmpty, "removing the item removes every variant's line")
        #expect(store.calls.filter { $0.hasPrefix("set") } == ["set 2", "set 1"])
    }

    @Test func customersHaveSeparateCarts() async throws {
        let (useCase, _) = make(items: [mug])
        _ = try await set(useCase, mug.id, 1)
        guard case .cart(let other) = try await useCase.show(CartShowInput(customerID: UUID(), addressID: nil)) else {
            throw UnexpectedOutcome(outcome: "no cart")
        }
        #expect(other.lines.isEmpty)
    }
}
