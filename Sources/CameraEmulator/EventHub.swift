import PTP
import Synchronization

/// Hands the camera's events to every device side listening: each access to ``stream`` makes a new subscriber, so
/// a PTP/IP server can serve one connection after another from the same camera (an `AsyncStream` has one
/// consumer, and ends for good when that consumer's task is cancelled).
final class EventHub: Sendable {
    private let subscribers = Mutex<[Int: AsyncStream<PTPEvent>.Continuation]>([:])
    private let nextID = Mutex(0)

    /// A new subscription; it ends when its consumer stops iterating.
    var stream: AsyncStream<PTPEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: PTPEvent.self, bufferingPolicy: .bufferingNewest(256))
        let id = nextID.withLock { value in
            value += 1
            return value
        }
        subscribers.withLock { $0[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.removeValue(forKey: id) }
        }
        return stream
    }

    /// Sends `event` to every subscriber; nobody hears it when no host is connected, as with a real camera.
    func send(_ event: PTPEvent) {
        let current = subscribers.withLock { Array($0.values) }
        for continuation in current { continuation.yield(event) }
    }

    /// How many device sides are listening.
    var subscriberCount: Int { subscribers.withLock { $0.count } }
}
