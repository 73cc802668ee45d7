import Domain
import Foundation
import UseCase

/// Resumable uploads' dependencies. Tests fill `init`; `live` keeps each upload's state and
/// bytes in PostgreSQL, where every instance of the service continues it.
public struct UploadContainer: Sendable {
    public let store: any ResumableUploadStore
    /// Where a finished upload is assembled into one file.
    public let spool: any FileSpool
    public let system: SystemContext
    /// How long an upload lives after its last byte.
    public let lifetime: Duration
    /// The most bytes all unfinished uploads hold together.
    public let pendingLimit: Int

    public init(store: any ResumableUploadStore, spool: any FileSpool, system: SystemContext, lifetime: Duration, pendingLimit: Int) {
        self.store = store
        self.spool = spool
        self.system = system
        self.lifetime = lifetime
        self.pendingLimit = pendingLimit
    }

    public var useCase: ResumableUploadUseCase {
        ResumableUploadUseCase(store: store, spool: spool, system: system, lifetime: lifetime, pendingLimit: pendingLimit)
    }
}
