import Foundation

/// A PostgreSQL server of a test's own (through `Tools/pgcluster`), for tests that stop and
/// restart the server under a running pool.
public struct PrivateCluster: Sendable {
    public let directory: String
    public let port: Int

    public var url: String { "postgresql://storefront@127.0.0.1:\(port)/postgres" }

    public static func start() throws -> PrivateCluster {
        let directory = NSTemporaryDirectory() + "sf-cluster-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o755])
        let cluster = PrivateCluster(directory: directory, port: freePort())
        try cluster.run("start")
        return cluster
    }

    public func stop() throws { try run("stop") }
    public func startAgain() throws { try run("start") }

    /// Stops the server and removes its files.
    public func destroy() {
        try? run("stop")
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func run(_ command: String) throws {
        let tool = repositoryRoot.appendingPathComponent("Tools/pgcluster").path
        let status = try spawnAndWait([tool, command, directory + "/data", String(port)])
        guard status == 0 else {
            throw TestSetupError("Tools/pgcluster \(command) failed with status \(status)")
        }
    }
}

/// A TCP port on 127.0.0.1 that nothing listens on right now.
public func freePort() -> Int {
    let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) }
    }
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
    }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// Runs a program and waits for it with `waitpid`. (Foundation's `Process.waitUntilExit` can miss
/// the child's exit when called from a Swift concurrency thread on Linux and then waits forever.)
/// The child's output goes to /dev/null: a server it starts must not hold the test's pipes open.
public func spawnAndWait(_ arguments: [String]) throws -> Int32 {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid = pid_t()
    let spawned = posix_spawn(&pid, arguments[0], &actions, nil, &argv, environ)
    guard spawned == 0 else { throw TestSetupError("cannot start \(arguments[0]): errno \(spawned)") }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
}
