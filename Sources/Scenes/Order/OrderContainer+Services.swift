import Domain
import UseCase

/// The Order scene's work beside its routes: the reconciler the service runs periodically (and
/// `storefront reconcile`), which needs the provider.
extension OrderContainer {
    /// The reconciler, or nil without a payment provider.
    public var reconciler: ReconcileUseCase? {
        payments.map {
            ReconcileUseCase(store: store, refunds: refundStore, payments: $0, system: system, actionTimeout: actionTimeout)
        }
    }
}
