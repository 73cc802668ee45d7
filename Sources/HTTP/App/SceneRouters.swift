import Hummingbird

/// Where every scene registers its routes (through `SceneRegistry`), by who may call them:
/// `anyone` (auth: public), `customer` (a live session's bearer token) and `admin` (the
/// `ADMIN_TOKEN` bearer). Each takes full paths; the guard is the group's middleware. `uploads`
/// reads every route's uploads, and knows the routes that take resumable ones.
struct SceneRouters {
    let anyone: RouterGroup<StorefrontContext>
    let customer: RouterGroup<StorefrontContext>
    let admin: RouterGroup<StorefrontContext>
    let uploads: UploadReceiver
}
