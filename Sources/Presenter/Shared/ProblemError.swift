/// An error whose answer is already decided (a 400, 413, 415...): thrown by request parsing and
/// by reading an upload, rendered by `ProblemMiddleware`, or by `Problem.from` when a route
/// presents it as an outcome's failure.
public struct ProblemError: Error {
    public let presentation: Presentation

    public init(_ presentation: Presentation) {
        self.presentation = presentation
    }
}
