import Synchronization

/// The shared part of every mock: the stubs a test set and the calls made, behind a lock so a
/// mock can be `Sendable` and used from concurrent tasks.
final class MockRecorder<Call: Sendable, Stubs: Sendable>: Sendable {
    private let state: Mutex<(stubs: Stubs, calls: [Call])>

    init(_ stubs: Stubs, _ configure: (inout Stubs) -> Void) {
        var stubs = stubs
        configure(&stubs)
        state = Mutex((stubs, []))
    }

    var calls: [Call] { state.withLock { $0.calls } }

    /// Records `call` and returns the stub the test set for it.
    /// - Throws: `UnstubbedCall` when the test set none.
    func record<T: Sendable>(_ call: Call, _ stub: KeyPath<Stubs, T?>) throws -> T {
        try state.withLock { state in
            state.calls.append(call)
            guard let stub = state.stubs[keyPath: stub] else { throw UnstubbedCall(call: call) }
            return stub
        }
    }
}
