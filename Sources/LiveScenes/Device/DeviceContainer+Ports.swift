// once: created by scenegen from Specs/Device.yml; yours to edit: scenegen never rewrites it.
import Domain
import Gateway
import Scenes

/// The production implementations of the Device scene's hand-written ports.
extension DeviceContainer {
    /// The `store` port.
    static func liveStore(_ resources: AppResources) -> any DeviceStore {
        PostgresDeviceStore(database: resources.pool)
    }

    /// The `push_queue` port.
    static func livePushQueue(_ resources: AppResources) -> any PushQueue {
        PostgresPushQueue(database: resources.pool)
    }

    /// The `push_provider` port: APNs, once `APNS_*` are set.
    static func livePushProvider(_ resources: AppResources) -> (any PushProvider)? {
        resources.config.apns.map { APNsPushProvider(settings: $0) }
    }
}
