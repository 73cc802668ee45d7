import Foundation

extension AppResources {
    /// Checks, as the service starts, the base URL of a generated http gateway (the variable its
    /// spec's `base_url_env` names): a value that is not an absolute http or https URL stops the
    /// start; none is allowed, and said in the log, since the gateway's calls then answer 502.
    /// - Parameter gateway: what the variable serves, for the messages (`ItemQuestion's Translator`).
    /// - Throws: `ConfigError` naming the variable and its value.
    public func checkGatewayBaseURL(_ variable: String, for gateway: String) throws(ConfigError) {
        guard let value = config.environment[variable] else {
            logger.warning("\(variable) is not set: every call of \(gateway) answers 502")
            return
        }
        guard AppConfig.isHTTPURL(value) else {
            throw ConfigError(problems: ["\(variable): the base URL of \(gateway) must be an http or https URL, got '\(value)'"])
        }
    }
}
