import Domain
import Foundation
import Gateway
import Scenes

/// The production graph of `UploadContainer`.
extension UploadContainer {
    public static func live(_ resources: AppResources) -> UploadContainer {
        UploadContainer(
            store: PostgresResumableUploadStore(database: resources.pool), spool: resources.fileSpool,
            system: resources.system, lifetime: resources.config.resumableUploadTTL,
            pendingLimit: resources.config.resumableUploadPendingLimit)
    }
}
