/// Work a use case starts that outlives its answer (the provider's webhook is answered at once,
/// the event acted on after): each job runs on its own task, and what goes wrong is logged with
/// the request that started it. A use case whose spec says `background: true` is handed one.
public protocol BackgroundWork: Sendable {
    /// Starts `work`; its error, if any, is logged as `job` failing.
    func start(_ job: String, _ work: @escaping @Sendable () async throws -> Void)

    /// Logs something staff should look at (a disputed payment) with the request's context.
    func warn(_ message: String)
}
