import Domain
import Translator

/// Home outcomes to HTTP answers.
public enum HomePresenter {
    /// 200 with the feed.
    public static func feed(_ outcome: Result<HomeFeed, any Error>) -> Presentation {
        outcome.map { .json(200, HomeTranslator.model($0)) }.recover(Problem.from)
    }
}
