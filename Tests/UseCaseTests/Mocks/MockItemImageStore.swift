import Domain
import Foundation
import MockSupport

/// An `ItemImageStore` that answers what the test set and records every call.
final class MockItemImageStore: ItemImageStore, Sendable {
    enum Call: Equatable, Sendable {
        case add(NewItemImage, Int)
        case update(UUID, String?, Int?)
        case remove(UUID)
        case count(UUID)
    }

    struct Stubs: Sendable {
        var add: (@Sendable (NewItemImage, Int) throws -> ItemImageAddition)?
        var update: (@Sendable (UUID, String?, Int?) throws -> ItemImage?)?
        var remove: (@Sendable (UUID) throws -> String?)?
        var count: (@Sendable (UUID) throws -> Int?)?
    }

    private let recorder: MockRecorder<Call, Stubs>

    init(_ configure: (inout Stubs) -> Void = { _ in }) {
        recorder = MockRecorder(Stubs(), configure)
    }

    var calls: [Call] { recorder.calls }

    func add(_ image: NewItemImage, limit: Int) async throws -> ItemImageAddition {
        try recorder.record(.add(image, limit), \.add)(image, limit)
    }

    func update(id: UUID, alt: String?, position: Int?) async throws -> ItemImage? {
        try recorder.record(.update(id, alt, position), \.update)(id, alt, position)
    }

    func remove(id: UUID) async throws -> String? {
        try recorder.record(.remove(id), \.remove)(id)
    }

    func count(itemID: UUID) async throws -> Int? {
        try recorder.record(.count(itemID), \.count)(itemID)
    }
}
