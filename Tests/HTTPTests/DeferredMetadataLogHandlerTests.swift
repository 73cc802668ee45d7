import LiveScenes
import Logging
import Synchronization
import Testing

@Suite("Log lines with metadata set per request")
struct DeferredMetadataLogHandlerTests {
    final class Lines: TextOutputStream, Sendable {
        private let text = Mutex("")
        func write(_ string: String) { text.withLock { $0 += string } }
        /// The lines without their leading timestamp, which may differ by a second.
        var withoutTimestamps: [String] {
            text.withLock { $0 }.split(separator: "\n").map { $0.split(separator: " ", maxSplits: 1).last.map(String.init) ?? "" }
        }
    }

    /// The same calls through both handlers write the same lines.
    @Test func writesWhatTheStreamHandlerWrites() {
        let deferred = Lines()
        let direct = Lines()
        var loggers = [
            Logger(label: "t") { DeferredMetadataLogHandler(StreamLogHandler(label: $0, stream: deferred, metadataProvider: nil)) },
            Logger(label: "t") { StreamLogHandler(label: $0, stream: direct, metadataProvider: nil) },
        ]
        for index in loggers.indices {
            loggers[index].logLevel = .info
            loggers[index].debug("not written")
            loggers[index].info("no metadata")
            loggers[index][metadataKey: "request_id"] = "r1"
            loggers[index][metadataKey: "b"] = .array(["x", "y"])
            loggers[index].info("set", metadata: ["status": "200", "b": "explicit wins"])
            loggers[index][metadataKey: "b"] = nil
            loggers[index].warning("after removal")
            #expect(loggers[index][metadataKey: "request_id"] == "r1")
        }
        #expect(deferred.withoutTimestamps.count == 3)
        #expect(deferred.withoutTimestamps == direct.withoutTimestamps)
    }
}
