import Domain
import Foundation
import MockSupport
import Scenes
import Testing
import UseCase

@Suite("Catalog use case on mock gateways")
struct CatalogUseCaseTests {
    func useCase(_ store: MockItemStore) -> CatalogUseCase {
        CatalogContainer(store: store, system: Fixtures.system).useCase
    }

    @Test func listAsksForOneMoreThanTheLimitAndIssuesACursor() async throws {
        let store = MockItemStore { $0.items = { _, _, limit in (0..<limit).map { Fixtures.item($0) } } }
        let page = try await useCase(store).list(limit: 3, cursor: nil, search: nil, category: nil)
        #expect(page.items.count == 3)
        #expect(page.nextCursor == PageCursor(createdAt: Fixtures.item(2).createdAt, id: Fixtures.item(2).id))
        #expect(store.calls == [.items(ItemFilter(), nil, 4)])
    }

    @Test func lastPageHasNoCursor() async throws {
        let store = MockItemStore { $0.items = { _, _, _ in [Fixtures.item(0)] } }
        let page = try await useCase(store).list(limit: nil, cursor: nil, search: nil, category: nil)
        #expect(page.nextCursor == nil)
        #expect(store.calls == [.items(ItemFilter(), nil, 21)])
    }

    @Test func cursorAndFiltersReachTheStore() async throws {
        let store = MockItemStore { $0.items = { _, _, _ in [] } }
        let cursor = PageCursor(createdAt: Fixtures.now, id: Fixtures.fixedID)
        _ = try await useCase(store).list(limit: 10, cursor: cursor.token, search: "  oak mug ", category: "kitchen")
        #expect(store.calls == [.items(ItemFilter(search: "oak mug", category: "kitchen"), cursor, 11)])
    }

    @Test(arguments: [0, 101, -5])
    func limitOutOfRangeIsAFieldError(limit: Int) async throws {
        let store = MockItemStore()
        await #expect(throws: ValidationError([FieldError("limit", "must be between 1 and 100")])) {
            try await useCase(store).list(limit: limit, cursor: nil, search: nil, category: nil)
        }
        #expect(store.calls.isEmpty)
    }

    @Test func badCursorAndLongSearchAreReportedTogether() async throws {
        do {
            _ = try await useCase(MockItemStore()).list(
                limit: 5, cursor: "garbage!", search: String(repeating: "x", count: 201), category: nil)
            Issue.record("accepted bad input")
        } catch let error as ValidationError {
            #expect(error.fields.map(\.field) == ["cursor", "q"])
        }
    }

    @Test func showUnknownItemIsNotFound() async throws {
        let store = MockItemStore { $0.item = { _ in nil } }
        await #expect(throws: CatalogError.itemNotFound(Fixtures.fixedID)) {
            try await useCase(store).show(id: Fixtures.fixedID)
        }
    }

    @Test func createUsesTheContainersClockAndIDs() async throws {
        let store = MockItemStore {
            $0.create = { id, draft, price, at in
                Item(
                    id: id, sku: draft.sku, name: draft.name, description: draft.description, category: draft.category,
                    price: price, stock: draft.stock, createdAt: at)
            }
        }
        let item = try await useCase(store).create(Fixtures.draft)
        #expect(item.id == Fixtures.fixedID)
        #expect(store.calls == [.create(Fixtures.fixedID, Fixtures.draft, Money(amount: 1200, currency: Fixtures.yen), Fixtures.now)])
    }

    @Test func createReportsEveryInvalidField() async throws {
        var draft = Fixtures.draft
        draft.sku = "bad sku!"
        draft.name = "  "
        draft.priceAmount = -1
        draft.currency = "yen"
        draft.stock = -2
        let store = MockItemStore()
        do {
            _ = try await useCase(store).create(draft)
            Issue.record("accepted an invalid draft")
        } catch let error as ValidationError {
            #expect(Set(error.fields.map(\.field)) == ["sku", "name", "price.amount", "price.currency", "stock"])
        }
        #expect(store.calls.isEmpty)
    }

    @Test func duplicateSKUFromTheStorePassesThrough() async throws {
        let store = MockItemStore { $0.create = { _, draft, _, _ in throw CatalogError.duplicateSKU(draft.sku) } }
        await #expect(throws: CatalogError.duplicateSKU("MUG-1")) { try await useCase(store).create(Fixtures.draft) }
    }

    @Test func updateSendsOnlyTheChangedFields() async throws {
        let store = MockItemStore { $0.update = { _, _ in Fixtures.item(1, stock: 9) } }
        let changes = ItemChanges(stock: 9)
        let item = try await useCase(store).update(id: Fixtures.fixedID, changes: changes)
        #expect(item.stock == 9)
        #expect(store.calls == [.update(Fixtures.fixedID, changes)])
    }

    @Test func emptyOrInvalidUpdateIsRejectedBeforeTheStore() async throws {
        let store = MockItemStore()
        await #expect(throws: ValidationError.self) { try await useCase(store).update(id: Fixtures.fixedID, changes: ItemChanges()) }
        await #expect(throws: ValidationError([FieldError("stock", "must be between 0 and 1000000000")])) {
            try await useCase(store).update(id: Fixtures.fixedID, changes: ItemChanges(stock: -1))
        }
        #expect(store.calls.isEmpty)
    }

    @Test func updateOfUnknownItemIsNotFound() async throws {
        let store = MockItemStore { $0.update = { _, _ in nil } }
        await #expect(throws: CatalogError.itemNotFound(Fixtures.fixedID)) {
            try await useCase(store).update(id: Fixtures.fixedID, changes: ItemChanges(name: "New"))
        }
    }

    @Test func storeOutageSurfacesAsUnavailable() async throws {
        let store = MockItemStore { $0.item = { _ in throw StoreUnavailable("down") } }
        await #expect(throws: StoreUnavailable("down")) { try await useCase(store).show(id: Fixtures.fixedID) }
    }

    @Test func seedingIsDeterministicAndOnlyIntoAnEmptyCatalog() async throws {
        let first = DemoCatalog.items(count: 1000)
        #expect(first == DemoCatalog.items(count: 1000))
        #expect(Set(first.map(\.category)).count >= 5)
        #expect(Set(first.map(\.sku)).count == 1000)
        let empty = MockItemStore { $0.insertIfEmpty = { _ in true } }
        #expect(try await useCase(empty).seedDemoCatalog(count: 1000) == 1000)
        let full = MockItemStore { $0.insertIfEmpty = { _ in false } }
        #expect(try await useCase(full).seedDemoCatalog(count: 1000) == 0)
    }

    @Test func cursorTokensRoundTrip() {
        let cursor = PageCursor(createdAt: Date(timeIntervalSince1970: 1_795_000_000.123456), id: Fixtures.fixedID)
        #expect(PageCursor(token: cursor.token) == cursor)
        #expect(!cursor.token.contains("=") && !cursor.token.contains("/") && !cursor.token.contains("+"))
        #expect(PageCursor(token: "") == nil)
    }
}
