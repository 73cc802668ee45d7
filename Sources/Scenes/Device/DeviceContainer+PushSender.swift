import Domain
import UseCase

extension DeviceContainer {
    /// What sends the queued pushes; `nil` without a push provider (APNS_* unset: pushes wait
    /// in the queue, and a sender started within a day still sends them).
    public var pushSender: PushSender? {
        pushProvider.map { PushSender(queue: pushQueue, provider: $0, system: system) }
    }
}
