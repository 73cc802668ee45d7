import Glibc
import Postgres

/// The database client alone, without HTTP: `concurrency` tasks share a pool of as many
/// connections and run pgbench's `-S` statement (one primary-key read of `pgbench_accounts`) over
/// random keys for `seconds`, then prints `RESULT <statements/s> <statements> <CPU us/statement>`.
/// `Benchmarks/postgres-client` runs it beside `pgbench -S` on the same database, so the two
/// figures differ only by the client.
///
///     postgres-client-benchmark CONNINFO CONCURRENCY SECONDS ACCOUNTS
@main
struct PostgresClientBenchmark {
    static func main() async throws {
        let arguments = CommandLine.arguments
        guard arguments.count == 5, let concurrency = Int(arguments[2]), let seconds = Int(arguments[3]),
            let accounts = Int(arguments[4]), concurrency > 0, seconds > 0, accounts > 0
        else {
            print("usage: postgres-client-benchmark CONNINFO CONCURRENCY SECONDS ACCOUNTS")
            return
        }
        let pool = PostgresPool(.init(connection: .init(conninfo: arguments[1]), maxConnections: concurrency))
        // Every connection opened and every statement prepared before the clock starts, as pgbench does.
        try await run(pool, concurrency: concurrency, for: .milliseconds(200), accounts: accounts)
        let clock = ContinuousClock()
        let start = clock.now
        let cpuBefore = cpuMicroseconds()
        let statements = try await run(pool, concurrency: concurrency, for: .seconds(seconds), accounts: accounts)
        let cpuPerStatement = Double(cpuMicroseconds() - cpuBefore) / Double(statements)
        let elapsed = clock.now - start
        let perSecond = Double(statements) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        print("RESULT \(Int(perSecond.rounded())) \(statements) \((cpuPerStatement * 10).rounded() / 10)")
        await pool.shutdown()
    }

    /// User plus system CPU time of this process so far.
    static func cpuMicroseconds() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let user = Int(usage.ru_utime.tv_sec) * 1_000_000 + Int(usage.ru_utime.tv_usec)
        return user + Int(usage.ru_stime.tv_sec) * 1_000_000 + Int(usage.ru_stime.tv_usec)
    }

    @discardableResult
    static func run(_ pool: PostgresPool, concurrency: Int, for duration: Duration, accounts: Int) async throws -> Int {
        let deadline = ContinuousClock.now + duration
        return try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<concurrency {
                group.addTask {
                    var count = 0
                    while ContinuousClock.now < deadline {
                        let account = Int.random(in: 1...accounts)
                        _ = try await pool.query("SELECT abalance FROM pgbench_accounts WHERE aid = $1", account)
                        count += 1
                    }
                    return count
                }
            }
            return try await group.reduce(0, +)
        }
    }
}
