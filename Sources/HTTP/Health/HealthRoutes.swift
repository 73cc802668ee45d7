import Hummingbird
import LiveScenes
import Presenter

/// `GET /health`: 200 when PostgreSQL answers, 503 when it does not (for load balancers).
enum HealthRoutes {
    struct Status: Encodable { let status: String }

    static func register(on router: Router<StorefrontContext>, resources: AppResources) {
        router.get("/health") { _, _ in
            guard await resources.databaseIsReachable() else {
                return Problem.unavailable("PostgreSQL does not answer.")
            }
            return Presentation.json(200, Status(status: "ok"))
        }
    }
}
