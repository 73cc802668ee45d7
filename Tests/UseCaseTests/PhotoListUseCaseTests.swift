import Domain
import Foundation
import MockSupport
import Scenes
import Synchronization
import Testing
import UseCase

/// The PhotoList scene's use case on a mock store, through its container: pages and their
/// cursors, a forged cursor, and an unknown item.
@Suite("PhotoList use case on mock gateways")
struct PhotoListUseCaseTests {
    /// A store holding `photos` (newest first) of item `Fixtures.id(50)`, recording each page asked.
    final class Store: ItemPhotoStore {
        let photos: [ItemPhoto]
        let asked = Mutex<[(cursor: PageCursor?, limit: Int)]>([])
        init(_ photos: [ItemPhoto]) { self.photos = photos }

        func page(itemID: UUID, after cursor: PageCursor?, limit: Int) async throws -> [ItemPhoto]? {
            guard itemID == PhotoListUseCaseTests.item else { return nil }
            asked.withLock { $0.append((cursor, limit)) }
            let rest = photos.drop { photo in cursor.map { PageCursor(createdAt: photo.createdAt, id: photo.id) != $0 } ?? false }
            return Array(rest.dropFirst(cursor == nil ? 0 : 1).prefix(limit))
        }
    }

    static let item = Fixtures.id(50)

    static func photo(_ index: Int) -> ItemPhoto {
        ItemPhoto(
            id: Fixtures.id(60 + index), itemID: item, reviewID: Fixtures.id(70), filename: "p\(index).jpg", contentType: .jpeg,
            size: 1000, createdAt: Fixtures.now.addingTimeInterval(-Double(index)), url: "https://media.example/p\(index).jpg")
    }

    func list(_ store: Store, item: UUID = Self.item, limit: Int?, cursor: String?) async throws -> PhotoListListOutcome {
        try await PhotoListContainer(store: store, system: Fixtures.system).useCase.list(
            PhotoListListInput(itemID: item, limit: limit, cursor: cursor))
    }

    @Test func pagesNewestFirstWithACursorToTheNext() async throws {
        let store = Store((0..<5).map(Self.photo))
        guard case .page(let first) = try await list(store, limit: 3, cursor: nil) else {
            Issue.record("no page")
            return
        }
        #expect(first.items.map(\.filename) == ["p0.jpg", "p1.jpg", "p2.jpg"])
        let next = try #require(first.nextCursor)
        guard case .page(let second) = try await list(store, limit: 3, cursor: next.token) else {
            Issue.record("no second page")
            return
        }
        #expect(second.items.map(\.filename) == ["p3.jpg", "p4.jpg"] && second.nextCursor == nil)
        // One more than the page is asked for, to know whether another page follows.
        #expect(store.asked.withLock { $0.map(\.limit) } == [4, 4])
    }

    @Test func refusesAForgedCursorWithoutAskingTheStore() async throws {
        let store = Store([Self.photo(0)])
        let error = await #expect(throws: ValidationError.self) { try await list(store, limit: nil, cursor: "not-a-cursor") }
        #expect(error?.fields.map(\.field) == ["cursor"])
        #expect(store.asked.withLock { $0 }.isEmpty)
    }

    @Test func answersAnUnknownItemAsNotFound() async throws {
        let unknown = Fixtures.id(51)
        #expect(try await list(Store([]), item: unknown, limit: nil, cursor: nil) == .itemNotFound(itemID: unknown))
    }
}
