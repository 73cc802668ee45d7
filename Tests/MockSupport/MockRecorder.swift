import Synchronization

/// The shared part of every mock: the stubs a test set and the calls made, behind a lock so a
/// mock can be `Sendable` and used from concurrent tasks.
public final class MockRecorder<Call: Sendable, Stubs: Sendable>: Sendable {
    private let state: Mutex<(stubs: Stubs, calls: [Call])>

    public init(_ stubs: Stubs, _ configure: (inout Stubs) -> Void) {
        var stubs = stubs
        configure(&stubs)
        state = Mutex((stubs, []))
    }

    public var calls: [Call] { state.withLock { $0.calls } }

    /// Records `call` and returns the stub the test set for it.
    /// - Throws: `UnstubbedCall` when the test set none.
    public func record<T: Sendable>(_ call: Call, _ stub: KeyPath<Stubs, T?>) throws -> T {
        try state.withLock { state in
            state.calls.append(call)
            guard let stub = state.stubs[keyPath: stub] else { throw UnstubbedCall(call: call) }
            return stub
        }
    }
}

/// Thrown (and so failing the test) when code calls a mock method the test did not stub.
public struct UnstubbedCall: Error, CustomStringConvertible {
    public let call: any Sendable

    public init(call: any Sendable) {
        self.call = call
    }

    public var description: String { "unstubbed mock call: \(call)" }
}
