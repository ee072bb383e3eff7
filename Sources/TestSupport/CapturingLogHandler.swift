import Logging
import Synchronization

/// A log handler that keeps messages in memory, for tests that check what the library logs.
public struct CapturingLogHandler: LogHandler {
    /// Where the messages go; share it between the handler and the test.
    public final class Store: Sendable {
        /// Every message so far.
        public let messages = Mutex<[String]>([])
        /// A copy of the messages.
        public var all: [String] { messages.withLock { $0 } }
        /// An empty store.
        public init() {}
    }

    /// The messages.
    public let store: Store
    /// Everything is captured unless the test lowers it.
    public var logLevel: Logger.Level = .trace
    /// Metadata, as `LogHandler` requires.
    public var metadata: Logger.Metadata = [:]

    /// A handler writing into `store`.
    public init(store: Store) { self.store = store }

    /// One metadata value.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Keeps the message with its level.
    public func log(event: LogEvent) {
        store.messages.withLock { $0.append("\(event.level): \(event.message)") }
    }

    /// A logger at `level` and the store it writes into.
    public static func logger(level: Logger.Level = .trace) -> (Logger, Store) {
        let store = Store()
        var logger = Logger(label: "test") { _ in CapturingLogHandler(store: store) }
        logger.logLevel = level
        return (logger, store)
    }
}
