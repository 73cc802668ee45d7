import Presenter

/// Request parsing failed and the answer is already decided (a 400, 413, 415...). Thrown by the
/// parsing helpers, rendered by `ProblemMiddleware`.
struct ProblemError: Error {
    let presentation: Presentation

    init(_ presentation: Presentation) {
        self.presentation = presentation
    }
}
