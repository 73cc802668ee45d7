import Domain
import Foundation
import Gateway
import UseCase

extension AppResources {
    /// Resumable uploads over this instance's pool: their state and bytes in PostgreSQL, where
    /// every instance continues them.
    public var resumableUploads: ResumableUploadUseCase {
        ResumableUploadUseCase(
            store: PostgresResumableUploadStore(database: pool), spool: fileSpool, system: system,
            lifetime: TimeInterval(config.resumableUploadTTL.components.seconds))
    }
}
