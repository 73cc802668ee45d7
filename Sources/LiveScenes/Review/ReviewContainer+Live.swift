import Domain
import Foundation
import Gateway
import Scenes
import UseCase

/// The production graph of `ReviewContainer`.
extension ReviewContainer {
    public static func live(_ resources: AppResources) -> ReviewContainer {
        ReviewContainer(
            store: PostgresReviewStore(database: resources.pool),
            media: resources.config.mediaURL.map { HTTPMediaStorage(baseURL: $0, timeout: resources.config.mediaTimeout) },
            system: resources.system,
            spoolDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("storefront-uploads"))
    }
}
