import Logging

/// `StreamLogHandler` formats its metadata each time a value is set, sorting and joining every
/// pair, although at the usual levels most requests log nothing: `RequestIDMiddleware` sets the
/// request's id on every request, and that formatting was 3 % of the server's CPU time on an item
/// lookup. This handler keeps the metadata as set and hands it to the stream handler only when a
/// line is written, so a line reads exactly as the stream handler alone would write it.
public struct DeferredMetadataLogHandler: LogHandler {
    private var stream: StreamLogHandler
    public var metadata: Logger.Metadata = [:]

    /// - Parameter stream: a handler with no metadata of its own.
    public init(_ stream: StreamLogHandler) {
        self.stream = stream
    }

    public var logLevel: Logger.Level {
        get { stream.logLevel }
        set { stream.logLevel = newValue }
    }

    public var metadataProvider: Logger.MetadataProvider? {
        get { stream.metadataProvider }
        set { stream.metadataProvider = newValue }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// The handler's metadata, then the provider's, then the line's own, each over the one before,
    /// as the stream handler merges them.
    public func log(event: LogEvent) {
        var event = event
        if !metadata.isEmpty {
            var merged = metadata
            if let provided = stream.metadataProvider?.get() { merged.merge(provided) { _, provided in provided } }
            event.metadata = merged.merging(event.metadata ?? [:]) { _, explicit in explicit }
        }
        stream.log(event: event)
    }
}
