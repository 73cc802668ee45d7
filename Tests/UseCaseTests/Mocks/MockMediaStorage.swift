import Domain
import Foundation
import MockSupport

/// A `MediaStorage` that answers what the test set and records every upload and delete.
final class MockMediaStorage: MediaStorage, Sendable {
    enum Call: Equatable, Sendable {
        case upload(UploadedFile, String, PhotoFormat)
        case delete(String)
    }

    struct Stubs: Sendable {
        var upload: (@Sendable (UploadedFile, String, PhotoFormat) throws -> String)?
        var delete: (@Sendable (String) throws -> Void)?
    }

    private let recorder: MockRecorder<Call, Stubs>

    init(_ configure: (inout Stubs) -> Void = { _ in }) {
        recorder = MockRecorder(Stubs(), configure)
    }

    var calls: [Call] { recorder.calls }

    func upload(_ file: UploadedFile, filename: String, format: PhotoFormat) async throws -> String {
        try recorder.record(.upload(file, filename, format), \.upload)(file, filename, format)
    }

    func delete(filename: String) async throws {
        try recorder.record(.delete(filename), \.delete)(filename)
    }
}
