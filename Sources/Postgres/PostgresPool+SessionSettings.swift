extension PostgresPool {
    /// Behind a transaction pooler no connection sends the session settings a direct one sends at
    /// startup (see `PostgresConnectionSettings.behindTransactionPooler`), so they must be the
    /// database role's defaults, in every server session the pooler opens:
    ///
    ///     ALTER ROLE storefront SET TimeZone = 'UTC';
    ///     ALTER ROLE storefront SET DateStyle = 'ISO';
    ///     ALTER ROLE storefront SET statement_timeout = '5s';
    ///     ALTER ROLE storefront SET lock_timeout = '2s';
    ///     ALTER ROLE storefront SET client_min_messages = 'warning';
    ///
    /// Dates are read as ISO text and written as UTC, and a request must not hold a pooled server
    /// session forever: this check refuses to start rather than serve with other settings.
    /// - Throws: `PostgresError.connection` naming each setting that is off and how to set it.
    public func checkPooledSessionSettings() async throws {
        let row = try await query(
            """
            SELECT current_setting('TimeZone') AS time_zone, current_setting('DateStyle') AS date_style,
                   current_setting('statement_timeout') AS statement_timeout,
                   current_setting('lock_timeout') AS lock_timeout,
                   current_setting('client_min_messages') AS client_min_messages, current_user AS role
            """
        ).rows[0]
        let role: String = try row.decode("role")
        var problems: [String] = []
        if try !Self.utcNames.contains(row.decode("time_zone", as: String.self)) { problems.append("TimeZone = 'UTC'") }
        if try !row.decode("date_style", as: String.self).hasPrefix("ISO") { problems.append("DateStyle = 'ISO'") }
        if try row.decode("statement_timeout", as: String.self) == "0" { problems.append("statement_timeout = '5s'") }
        if try row.decode("lock_timeout", as: String.self) == "0" { problems.append("lock_timeout = '2s'") }
        // Below warning, libpq writes every notice to standard error.
        if try !["warning", "error", "log", "fatal", "panic"].contains(row.decode("client_min_messages", as: String.self)) {
            problems.append("client_min_messages = 'warning'")
        }
        guard problems.isEmpty else {
            let statements = problems.map { "ALTER ROLE \"\(role)\" SET \($0);" }.joined(separator: " ")
            throw PostgresError.connection(
                message: "behind a transaction pooler the session settings are the role's defaults; run: \(statements)")
        }
    }

    /// PostgreSQL's names for UTC (a fresh cluster's default is the system's, often `Etc/UTC`).
    private static let utcNames: Set = [
        "UTC", "Etc/UTC", "UCT", "Etc/UCT", "GMT", "Etc/GMT", "Zulu", "Etc/Zulu", "Universal", "Etc/Universal",
    ]
}
