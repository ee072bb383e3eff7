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

/// Messages logged at `minimum` or above, kept as written (without their level), with the logger that collects
/// them: for checks of what a run said ("says so once") or set.
public final class LogCollector: Sendable {
    /// The lowest level kept.
    public let minimum: Logger.Level
    private let stored = Mutex<[String]>([])

    /// A collector of messages at `minimum` and above (warnings by default).
    public init(minimum: Logger.Level = .warning) { self.minimum = minimum }

    /// The messages so far, in order.
    public var messages: [String] { stored.withLock { $0 } }

    /// A logger writing into this collector.
    public var logger: Logger {
        var logger = Logger(label: "test") { [self] _ in Handler(collector: self) }
        logger.logLevel = minimum
        return logger
    }

    private struct Handler: LogHandler {
        let collector: LogCollector
        var logLevel: Logger.Level
        var metadata: Logger.Metadata = [:]

        init(collector: LogCollector) {
            self.collector = collector
            logLevel = collector.minimum
        }

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            guard event.level >= collector.minimum else { return }
            collector.stored.withLock { $0.append("\(event.message)") }
        }
    }
}
