import Domain
import Foundation
import UseCase

/// The Review scene's dependencies. `media` is nil when `MEDIA_API_URL` is unset: reviews work,
/// photo uploads answer 502.
public struct ReviewContainer: Sendable {
    public let store: any ReviewStore
    public let media: (any MediaStorage)?
    public let system: SystemContext
    /// Where uploads are spooled while they are read.
    public let spoolDirectory: URL

    public init(store: any ReviewStore, media: (any MediaStorage)?, system: SystemContext, spoolDirectory: URL) {
        self.store = store
        self.media = media
        self.system = system
        self.spoolDirectory = spoolDirectory
    }

    public var useCase: ReviewUseCase { ReviewUseCase(store: store, media: media, system: system) }
}
