/// What a log may print of the configuration and the resources built from it: never the
/// environment, `DATABASE_URL` (which may hold a password), the admin token or the provider's keys.
/// ServiceLifecycle logs every service it starts with its description (at debug level), and a
/// service holding the resources would otherwise print all of them.
extension AppConfig: CustomStringConvertible {
    public var description: String { "AppConfig(\(host):\(port), secrets withheld)" }
}

extension AppResources: CustomStringConvertible {
    public var description: String { "AppResources(\(config))" }
}
