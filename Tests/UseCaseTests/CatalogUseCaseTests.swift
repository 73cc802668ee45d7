import Domain
import Foundation
import MockSupport
import Scenes
import Synchronization
import Testing
import UseCase

@Suite("Catalog use case on mock gateways")
struct CatalogUseCaseTests {
    func useCase(_ store: MockItemStore, images: MockItemImageStore = MockItemImageStore(), media: MockMediaStorage? = nil)
        -> CatalogUseCase
    {
        CatalogContainer(store: store, images: images, media: media, currency: Fixtures.yen, system: Fixtures.system).useCase
    }

    /// The list's input as a client sends it, checked as the route checks it.
    func listInput(
        limit: Int? = nil, cursor: String? = nil, q: String? = nil, category: String? = nil, sort: String? = nil,
        option: [String: String]? = nil
    ) throws -> CatalogListInput {
        try CatalogListInput.Unchecked(limit: limit, cursor: cursor, q: q, category: category, sort: sort, option: option).validated()
    }

    func page(_ outcome: CatalogListOutcome) -> ItemPage {
        switch outcome {
        case .page(let page): page
        }
    }

    /// Items as the store answers them, each with the cursor after it in `sort`.
    static func sorted(_ items: [Item], _ sort: ItemSort = .newest) -> [(item: Item, cursor: ItemCursor)] {
        items.map { ($0, ItemCursor(sort: sort, key: .number($0.price.amount), id: $0.id)) }
    }

    @Test func listAsksForOneMoreThanTheLimitAndIssuesTheCursorOfTheLastShown() async throws {
        let store = MockItemStore { $0.items = { _, _, _, limit in Self.sorted((0..<limit).map { Fixtures.item($0) }) } }
        let page = page(try await useCase(store).list(listInput(limit: 3)))
        #expect(page.data.count == 3)
        #expect(page.nextCursor == Self.sorted([Fixtures.item(2)])[0].cursor.token)
        #expect(store.calls == [.items(ItemFilter(), .newest, nil, 4)])
    }

    @Test func lastPageHasNoCursor() async throws {
        let store = MockItemStore { $0.items = { _, _, _, _ in Self.sorted([Fixtures.item(0)]) } }
        let page = page(try await useCase(store).list(listInput()))
        #expect(page.nextCursor == nil)
        #expect(store.calls == [.items(ItemFilter(), .newest, nil, 21)])
    }

    @Test func cursorSortAndFiltersReachTheStore() async throws {
        let store = MockItemStore { $0.items = { _, _, _, _ in [] } }
        let cursor = ItemCursor(sort: .priceAsc, key: .number(1200), id: Fixtures.fixedID)
        _ = try await useCase(store).list(
            listInput(limit: 10, cursor: cursor.token, q: "  oak mug ", category: "kitchen", sort: "price_asc", option: ["size": "M"]))
        let filter = ItemFilter(search: "oak mug", category: "kitchen", options: ["size": "M"])
        #expect(store.calls == [.items(filter, .priceAsc, cursor, 11)])
    }

    @Test func aCursorOfAnotherSortOrABadOptionIsRefusedBeforeTheStore() async throws {
        let store = MockItemStore()
        let cursor = ItemCursor(sort: .priceAsc, key: .number(1200), id: Fixtures.fixedID)
        await #expect(throws: ValidationError([FieldError("cursor", "belongs to sort=price_asc: start again without it")])) {
            try await useCase(store).list(listInput(cursor: cursor.token, sort: "name"))
        }
        let error = await #expect(throws: ValidationError.self) {
            try await useCase(store).list(listInput(option: ["Size": "M", "size": String(repeating: "x", count: 51)]))
        }
        #expect(error?.fields.map(\.field) == ["option.size"], "the route's rule names the long value first")
        await #expect(
            throws: ValidationError([FieldError("option.Size", "must name an option as items do: a lowercase key (option.size=M)")])
        ) {
            try await useCase(store).list(listInput(option: ["Size": "M"]))
        }
        #expect(store.calls.isEmpty)
    }

    @Test func aBlankSearchSearchesNothing() async throws {
        let store = MockItemStore { $0.items = { _, _, _, _ in [] } }
        _ = try await useCase(store).list(listInput(q: " \n "))
        #expect(store.calls == [.items(ItemFilter(), .newest, nil, 21)])
    }

    @Test(arguments: [0, 101, -5])
    func limitOutOfRangeIsAFieldError(limit: Int) async throws {
        #expect(throws: ValidationError([FieldError("limit", "must be 1 to 100")])) { try listInput(limit: limit) }
    }

    @Test func aBadCursorIsAFieldErrorBeforeTheStore() async throws {
        let store = MockItemStore()
        await #expect(throws: ValidationError.self) { try await useCase(store).list(listInput(cursor: "garbage!")) }
        #expect(store.calls.isEmpty)
        #expect(throws: ValidationError([FieldError("q", "must be at most 200 characters")])) {
            try listInput(q: String(repeating: "x", count: 201))
        }
    }

    @Test func showUnknownItemIsNotFound() async throws {
        let store = MockItemStore { $0.item = { _ in nil } }
        #expect(try await useCase(store).show(CatalogShowInput(id: Fixtures.fixedID)) == .notFound(id: Fixtures.fixedID))
    }

    /// `Fixtures.draft` as the route hands it to the use case.
    static let createInput = CatalogCreateInput(
        sku: "MUG-1", name: "Mug", description: "A mug", category: "kitchen", taxClass: .standard,
        price: Money(amount: 1200, currency: Fixtures.yen),
        stock: 3, options: nil, variants: nil)

    @Test func createUsesTheContainersClockAndIDs() async throws {
        let store = MockItemStore {
            $0.create = { id, draft, at in
                let variants = draft.variants.map { Variant(id: $0.id, sku: $0.sku, options: $0.options, price: $0.price, stock: $0.stock) }
                return Item(
                    id: id, sku: draft.sku, name: draft.name, description: draft.description, category: draft.category,
                    taxClass: .standard, price: variants[0].price, stock: variants[0].stock, createdAt: at, reviewCount: 0,
                    ratingAverage: nil,
                    options: draft.options, variants: variants, images: [], thumbnailURL: nil, archivedAt: nil)
            }
        }
        guard case .created(let item) = try await useCase(store).create(Self.createInput) else {
            Issue.record("not created")
            return
        }
        #expect(item.id == Fixtures.fixedID)
        #expect(store.calls == [.create(Fixtures.fixedID, Fixtures.draft, Fixtures.now)])
    }

    @Test func createReportsEveryFieldBreakingARuleTheSpecCannotState() async throws {
        let input = CatalogCreateInput(
            sku: "bad sku!", name: "  ", description: "", category: "\n", taxClass: .standard,
            price: Money(amount: 1, currency: Fixtures.yen), stock: 0,
            options: nil, variants: nil)
        let store = MockItemStore()
        do {
            _ = try await useCase(store).create(input)
            Issue.record("accepted an invalid draft")
        } catch let error as ValidationError {
            #expect(error.fields.map(\.field) == ["sku", "name", "category"])
        }
        #expect(store.calls.isEmpty)
    }

    @Test func theGeneratedCheckReportsEveryBrokenBound() throws {
        let unchecked = CatalogCreateInput.Unchecked(
            sku: "", name: "Mug", category: "kitchen", price: MoneyInput(amount: -1, currency: "yen"), stock: -2)
        do {
            _ = try unchecked.validated()
            Issue.record("accepted an invalid input")
        } catch {
            #expect(Set(error.fields.map(\.field)) == ["sku", "price.amount", "price.currency", "stock"])
        }
    }

    @Test func aTakenSKUIsItsOutcome() async throws {
        let store = MockItemStore { $0.create = { _, draft, _ in throw CatalogError.duplicateSKU(draft.sku) } }
        #expect(
            try await useCase(store).create(Self.createInput)
                == .duplicateSKU(sku: "MUG-1", errors: [FieldError("sku", "is already taken")]))
    }

    /// A T-shirt in sizes S and M and colour navy, its variants choosing values in any order.
    static func shirtInput(price: Money? = nil, extra: [VariantInput] = []) -> CatalogCreateInput {
        let yen = Money(amount: 2500, currency: Fixtures.yen)
        return CatalogCreateInput(
            sku: "TEE", name: "T-shirt", description: "", category: "apparel", taxClass: .standard, price: price, stock: nil,
            options: [ItemOptionInput(name: "size", values: ["S", "M"]), ItemOptionInput(name: "colour", values: ["navy"])],
            variants: [
                VariantInput(
                    sku: "TEE-S", price: yen, stock: 1,
                    options: [VariantOptionInput(name: "colour", value: "navy"), VariantOptionInput(name: "size", value: "S")]),
                VariantInput(
                    sku: "TEE-M", price: yen, stock: 2,
                    options: [VariantOptionInput(name: "size", value: "M"), VariantOptionInput(name: "colour", value: "navy")]),
            ] + extra)
    }

    @Test func createWithVariantsDraftsEachWithItsValuesInTheOptionsOrder() async throws {
        let store = MockItemStore { $0.create = { _, _, _ in Fixtures.shirt() } }
        _ = try await useCase(store).create(Self.shirtInput())
        guard case .create(_, let draft, _) = store.calls.first else { throw ValidationError([]) }
        #expect(draft.options.map(\.name) == ["size", "colour"])
        #expect(draft.variants.map(\.sku) == ["TEE-S", "TEE-M"] && draft.variants.map(\.stock) == [1, 2])
        #expect(draft.variants[0].options == [VariantOption(name: "size", value: "S"), VariantOption(name: "colour", value: "navy")])
    }

    @Test func createWithVariantsNamesEveryBrokenRuleByItsPlace() async throws {
        let store = MockItemStore()
        let twin = VariantInput(
            sku: "TEE-S", price: Money(amount: 1, currency: Currency("USD")!), stock: 1,
            options: [VariantOptionInput(name: "size", value: "M"), VariantOptionInput(name: "colour", value: "navy")])
        let error = await #expect(throws: ValidationError.self) {
            try await useCase(store).create(Self.shirtInput(price: Money(amount: 1, currency: Fixtures.yen), extra: [twin]))
        }
        #expect(error?.fields.map(\.field) == ["price", "variants[2].sku", "variants[2].price.currency", "variants[2].options"])
        #expect(store.calls.isEmpty)
        let taken = MockItemStore { $0.create = { _, _, _ in throw CatalogError.duplicateSKU("TEE-M") } }
        #expect(
            try await useCase(taken).create(Self.shirtInput())
                == .duplicateSKU(sku: "TEE-M", errors: [FieldError("variants[1].sku", "is already taken")]))
    }

    @Test func stockChangesByANonZeroDeltaAndItsHistoryPagesByMovement() async throws {
        let movement: @Sendable (Int64) -> StockMovement = { id in
            StockMovement(id: id, variantID: Fixtures.fixedID, delta: -1, stockAfter: 0, reason: "sold", orderID: nil, at: Fixtures.now)
        }
        let store = MockItemStore {
            $0.adjustStock = { _, _, _ in throw CatalogError.insufficientStock(available: 2) }
            $0.stockMovements = { _, before, limit in (1...Int64(limit)).map { movement((before ?? 100) - $0) } }
        }
        let adjust = { (delta: Int) in CatalogAdjustStockInput(id: Fixtures.fixedID, delta: delta, reason: "lost") }
        #expect(try await useCase(store).adjustStock(adjust(-3)) == .insufficientStock(id: Fixtures.fixedID, available: 2))
        let full = MockItemStore { $0.adjustStock = { _, _, _ in throw CatalogError.stockLimit(available: 1_000_000_000) } }
        #expect(try await useCase(full).adjustStock(adjust(1)) == .stockLimit(id: Fixtures.fixedID, available: 1_000_000_000))
        await #expect(throws: ValidationError([FieldError("delta", "must not be 0")])) { try await useCase(store).adjustStock(adjust(0)) }
        guard case .history(let first) = try await useCase(store).stockHistory(.init(id: Fixtures.fixedID, limit: 2, cursor: nil)) else {
            throw ValidationError([])
        }
        #expect(first.data.map(\.id) == [99, 98])
        let next = try #require(first.nextCursor)
        guard case .history(let second) = try await useCase(store).stockHistory(.init(id: Fixtures.fixedID, limit: 2, cursor: next)) else {
            throw ValidationError([])
        }
        #expect(second.data.map(\.id) == [97, 96])
        await #expect(throws: ValidationError.self) {
            try await useCase(store).stockHistory(
                .init(id: Fixtures.fixedID, limit: 2, cursor: PageCursor(createdAt: Fixtures.now, id: Fixtures.fixedID).token))
        }
    }

    func editInput(
        name: String? = nil, price: MoneyChange? = nil
    ) -> CatalogEditInput {
        CatalogEditInput(
            id: Fixtures.fixedID, name: name, description: nil, category: nil, taxClass: nil, price: price, options: nil, variants: nil)
    }

    @Test func editSendsOnlyTheChangedFields() async throws {
        let store = MockItemStore { $0.update = { _, _ in Fixtures.item(1, stock: 9) } }
        #expect(try await useCase(store).edit(editInput(name: "Big mug")) == .item(Fixtures.item(1, stock: 9)))
        _ = try await useCase(store).edit(editInput(price: MoneyChange(amount: 1500, currency: nil)))
        #expect(
            store.calls == [
                .update(Fixtures.fixedID, ItemChanges(name: "Big mug")), .update(Fixtures.fixedID, ItemChanges(priceAmount: 1500)),
            ])
    }

    @Test func anEmptyOrBlankEditIsRefusedBeforeTheStore() async throws {
        let store = MockItemStore()
        await #expect(throws: ValidationError.self) { try await useCase(store).edit(editInput()) }
        await #expect(throws: ValidationError([FieldError("name", "must not be blank")])) {
            try await useCase(store).edit(editInput(name: " "))
        }
        #expect(store.calls.isEmpty)
    }

    @Test func aPartialPriceIsCheckedWhereItIsSent() throws {
        func price(_ amount: Int64?, _ currency: String?) throws -> MoneyChange? {
            try CatalogEditInput.Unchecked(id: Fixtures.fixedID, price: MoneyChangeInput(amount: amount, currency: currency)).validated()
                .price
        }
        #expect(try price(1500, nil) == MoneyChange(amount: 1500, currency: nil))
        #expect(try price(nil, "USD") == MoneyChange(amount: nil, currency: Currency("USD")))
        #expect(throws: ValidationError([FieldError("price", "must set amount, currency or both")])) { try price(nil, nil) }
        #expect(throws: ValidationError([FieldError("price.currency", "must be an ISO 4217 code of three uppercase letters")])) {
            try price(1, "yen")
        }
        #expect(throws: ValidationError([FieldError("price.amount", "must be 0 to 1000000000000 minor units")])) { try price(-1, nil) }
    }

    /// A cart is priced in the shop's currency, so a price in another would make an item that
    /// can be shown and never bought: every write of a price refuses it, naming the field,
    /// before the store changes anything.
    @Test func everyPriceIsInTheShopsCurrency() async throws {
        let dollars = Money(amount: 900, currency: Currency("USD")!)
        let store = MockItemStore { $0.item = { _ in Fixtures.item(1) } }
        let useCase = useCase(store)
        func refusal(_ field: String) -> ValidationError {
            ValidationError([FieldError(field, "must be the shop's currency (JPY)")])
        }
        await #expect(throws: refusal("price.currency")) {
            try await useCase.create(
                CatalogCreateInput(
                    sku: "MUG-1", name: "Mug", description: "", category: "kitchen", taxClass: .standard, price: dollars, stock: 3,
                    options: nil, variants: nil))
        }
        let shirt = Self.shirtInput()
        let pricedInDollars = shirt.variants!.map {
            VariantInput(sku: $0.sku, price: dollars, stock: $0.stock, options: $0.options)
        }
        let everyVariant = ValidationError(
            pricedInDollars.indices.map { FieldError("variants[\($0)].price.currency", "must be the shop's currency (JPY)") })
        await #expect(throws: everyVariant) {
            try await useCase.create(
                CatalogCreateInput(
                    sku: shirt.sku, name: shirt.name, description: shirt.description, category: shirt.category,
                    taxClass: shirt.taxClass, price: nil, stock: nil, options: shirt.options, variants: pricedInDollars))
        }
        await #expect(throws: refusal("price.currency")) {
            try await useCase.edit(editInput(price: MoneyChange(amount: nil, currency: dollars.currency)))
        }
        await #expect(throws: refusal("variants[0].price.currency")) {
            try await useCase.edit(
                CatalogEditInput(
                    id: Fixtures.fixedID, name: nil, description: nil, category: nil, taxClass: nil, price: nil, options: nil,
                    variants: [VariantChange(id: Fixtures.id(2), sku: nil, price: dollars)]))
        }
        await #expect(throws: refusal("price.currency")) {
            try await useCase.addVariant(CatalogAddVariantInput(id: Fixtures.fixedID, sku: "MUG-2", price: dollars, stock: 1, options: []))
        }
        await #expect(throws: refusal("price.currency")) {
            try await useCase.editVariant(
                CatalogEditVariantInput(id: Fixtures.id(2), sku: nil, price: MoneyChange(amount: 1, currency: dollars.currency)))
        }
        #expect(store.calls.allSatisfy { if case .item = $0 { true } else { false } }, "\(store.calls)")
    }

    @Test func editOfUnknownItemIsNotFound() async throws {
        let store = MockItemStore { $0.update = { _, _ in nil } }
        #expect(try await useCase(store).edit(editInput(name: "New")) == .notFound(id: Fixtures.fixedID))
    }

    @Test func aPriceOrStockForAnItemWithSeveralVariantsIsItsOutcome() async throws {
        let store = MockItemStore { $0.update = { _, _ in throw CatalogError.itemHasVariants(6) } }
        let price = MoneyChange(amount: 1, currency: nil)
        #expect(try await useCase(store).edit(editInput(price: price)) == .itemHasVariants(id: Fixtures.fixedID, count: 6))
    }

    @Test func storeOutageSurfacesAsUnavailable() async throws {
        let store = MockItemStore { $0.item = { _ in throw StoreUnavailable("down") } }
        await #expect(throws: StoreUnavailable("down")) { try await useCase(store).show(CatalogShowInput(id: Fixtures.fixedID)) }
    }

    @Test func seedingIsDeterministicAndOnlyIntoAnEmptyCatalog() async throws {
        let first = DemoCatalog.items(count: 1000, currency: Fixtures.yen)
        #expect(first == DemoCatalog.items(count: 1000, currency: Fixtures.yen))
        #expect(Set(first.map(\.category)).count >= 5)
        #expect(Set(first.map(\.sku)).count == 1000)
        let empty = MockItemStore { $0.insertIfEmpty = { _ in true } }
        #expect(try await useCase(empty).seedDemoCatalog(count: 1000) == 1000)
        let full = MockItemStore { $0.insertIfEmpty = { _ in false } }
        #expect(try await useCase(full).seedDemoCatalog(count: 1000) == 0)
    }

    /// A shop selling in dollars gets a demo catalog it can sell: every price in its currency.
    @Test func theDemoCatalogIsPricedInTheShopsCurrency() async throws {
        let dollars = Currency("USD")!
        let seeded = Mutex<[Item]>([])
        let store = MockItemStore {
            $0.insertIfEmpty = { items in
                seeded.withLock { $0 = items }
                return true
            }
        }
        let useCase = CatalogContainer(store: store, images: MockItemImageStore(), media: nil, currency: dollars, system: Fixtures.system)
            .useCase
        #expect(try await useCase.seedDemoCatalog(count: 50) == 50)
        let items = seeded.withLock { $0 }
        #expect(items.count == 50)
        #expect(items.allSatisfy { $0.price.currency == dollars && $0.variants.allSatisfy { $0.price.currency == dollars } })
    }

    @Test func cursorTokensRoundTrip() {
        let cursor = PageCursor(createdAt: Date(timeIntervalSince1970: 1_795_000_000.123456), id: Fixtures.fixedID)
        #expect(PageCursor(token: cursor.token) == cursor)
        #expect(!cursor.token.contains("=") && !cursor.token.contains("/") && !cursor.token.contains("+"))
        #expect(PageCursor(token: "") == nil)
    }

    @Test func anImageTheRecordRefusesIsDeletedFromTheMediaAPIAgain() async throws {
        let jpeg = UploadedFile(path: "/tmp/x", size: 2048, leadingBytes: [0xFF, 0xD8, 0xFF, 0xE0])
        let input = CatalogAddImageInput(id: Fixtures.fixedID, alt: nil, variantID: nil)
        for (addition, outcome) in [
            (ItemImageAddition.full, CatalogAddImageOutcome.tooManyImages(limit: 20)),
            (.itemNotFound, .notFound(id: Fixtures.fixedID)),
            (.notAVariantOfTheItem(variantID: Fixtures.id(2)), .notAVariantOfTheItem(id: Fixtures.fixedID, variantID: Fixtures.id(2))),
        ] {
            let media = MockMediaStorage {
                $0.upload = { _, name, _ in "stored-" + name }
                $0.delete = { _ in }
            }
            let images = MockItemImageStore { $0.add = { _, _ in addition } }
            #expect(try await useCase(MockItemStore(), images: images, media: media).addImage(input, upload: jpeg) == outcome)
            #expect(media.calls.last == .delete("stored-\(Fixtures.fixedID.uuidString.lowercased()).jpg"))
        }
        // The store down: whether its commit recorded the image is unknown, so the file stays
        // (an orphan file, never an image without its file).
        let kept = MockMediaStorage {
            $0.upload = { _, name, _ in "stored-" + name }
            $0.delete = { _ in }
        }
        let down = MockItemImageStore { $0.add = { _, _ in throw StoreUnavailable("down") } }
        await #expect(throws: StoreUnavailable.self) {
            try await useCase(MockItemStore(), images: down, media: kept).addImage(input, upload: jpeg)
        }
        #expect(!kept.calls.contains { if case .delete = $0 { true } else { false } })
        // Refused by its bytes: nothing reaches the media API or the store.
        let media = MockMediaStorage()
        let text = UploadedFile(path: "/tmp/x", size: 5, leadingBytes: Array("hello".utf8))
        #expect(try await useCase(MockItemStore(), media: media).addImage(input, upload: text) == .imageUnrecognized)
        #expect(media.calls.isEmpty)
        // Full before the upload is read.
        let full = MockItemImageStore { $0.count = { _ in 20 } }
        #expect(try await useCase(MockItemStore(), images: full).addImageBeforeUpload(input) == .tooManyImages(limit: 20))
    }
}
