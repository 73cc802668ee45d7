import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A bare HTTP/1.1 connection on loopback for what a client library hides: sending part of a
/// body and cutting the connection, and reading interim (1xx) answers. Blocking calls, each on
/// a thread of its own, bounded by a 10 s receive timeout.
final class RawHTTPConnection: @unchecked Sendable {
    private let socket: Int32

    init(port: Int) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
    }

    deinit { close(socket) }

    /// Writes a request head; `headers` in order, each `name: value`.
    func head(_ method: String, _ path: String, headers: [(String, String)]) async throws {
        let lines = ["\(method) \(path) HTTP/1.1", "Host: 127.0.0.1"] + headers.map { "\($0.0): \($0.1)" }
        try await write(Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8))
    }

    func write(_ bytes: [UInt8]) async throws {
        let socket = self.socket
        try await Self.onThread {
            var sent = 0
            while sent < bytes.count {
                let n = bytes[sent...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                guard n > 0 else { throw POSIXError(.EPIPE) }
                sent += n
            }
        }
    }

    /// Reads until one answer's head is complete (an interim one too); returns its status, headers
    /// and version (`HTTP/1.1`).
    func readHead() async throws -> (status: Int, headers: [String: String], version: String) {
        let socket = self.socket
        let text = try await Self.onThread { () -> String in
            var received: [UInt8] = []
            var byte: UInt8 = 0
            while !received.ends(with: Array("\r\n\r\n".utf8)) {
                guard recv(socket, &byte, 1, 0) == 1 else { throw POSIXError(.ETIMEDOUT) }
                received.append(byte)
            }
            return String(decoding: received, as: UTF8.self)
        }
        var lines = text.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        let statusLine = lines.removeFirst().split(separator: " ")
        let status = Int(statusLine[1]) ?? 0
        var headers: [String: String] = [:]
        for line in lines {
            let parts = line.split(separator: ":", maxSplits: 1)
            headers[parts[0].lowercased()] = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
        }
        return (status, headers, String(statusLine[0]))
    }

    /// Reads exactly `count` bytes (an answer's body of known length).
    func read(_ count: Int) async throws -> [UInt8] {
        let socket = self.socket
        return try await Self.onThread {
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while received.count < count {
                let n = recv(socket, &buffer, min(buffer.count, count - received.count), 0)
                guard n > 0 else { throw POSIXError(.ETIMEDOUT) }
                received += buffer[..<n]
            }
            return received
        }
    }

    /// Whether the service ends its side of the connection (the next read finds the end of the
    /// stream) within the 10 s receive timeout, without sending anything more.
    func endsWithinTimeout() async throws -> Bool {
        let socket = self.socket
        return try await Self.onThread {
            var byte: UInt8 = 0
            return recv(socket, &byte, 1, 0) == 0
        }
    }

    /// Ends what this side sends (the server reads the end of the stream) and keeps reading.
    func endWriting() {
        shutdown(socket, Int32(SHUT_WR))
    }

    /// Cuts the connection as a phone losing its network would: a reset, not a graceful close.
    func cut() {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(socket, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        shutdown(socket, Int32(SHUT_RDWR))
    }

    private static func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
        }
    }
}

extension Array where Element == UInt8 {
    fileprivate func ends(with suffix: [UInt8]) -> Bool { count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix }
}
