import Domain
import Translator

/// PhotoList outcomes to HTTP answers.
public enum PhotoListPresenter {
    /// 200 with `{"data": [photo...], "next_cursor"}`.
    public static func page(_ outcome: Result<Page<ReviewPhoto>, any Error>) -> Presentation {
        outcome.map { .json(200, ReviewTranslator.model($0)) }.recover(ReviewPresenter.problem)
    }
}
