import Logging
import Synchronization

/// A log handler that keeps messages in memory, for tests that check what the library logs.
struct CapturingLogHandler: LogHandler {
    final class Store: Sendable {
        let messages = Mutex<[String]>([])
        var all: [String] { messages.withLock { $0 } }
    }

    let store: Store
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        store.messages.withLock { $0.append("\(event.level): \(event.message)") }
    }

    static func logger(level: Logger.Level = .trace) -> (Logger, Store) {
        let store = Store()
        var logger = Logger(label: "test") { _ in CapturingLogHandler(store: store) }
        logger.logLevel = level
        return (logger, store)
    }
}
