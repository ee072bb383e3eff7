import Dispatch
import PTP
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// One non-blocking socket, shared by the tasks that read, write or accept on it, with a lifetime that makes
/// closing safe.
///
/// Socket calls themselves never block (the socket is `O_NONBLOCK`), so they run on the caller's task. Only the
/// wait for readiness blocks, in `poll(2)`, and it runs on a dispatch queue of its own, never on Swift's
/// cooperative pool (two threads wide on the build machines). Each wait also polls the read end of a private
/// socket pair: ``close()`` and task cancellation write a byte to it, so a wait ends at once rather than at its
/// deadline.
///
/// The descriptor number is closed only when no call and no wait uses it any more, so a `close()` racing a
/// `recv()` can never make that `recv()` read from an unrelated file that reused the number.
final class SocketDescriptor: Sendable {
    /// What a wait is for.
    enum Readiness {
        /// Bytes to read, a connection to accept, or the end of the stream.
        case readable
        /// Room to write, or a finished connect.
        case writable
    }

    private struct State: Sendable {
        var descriptor: Int32
        var isClosed = false
        var users = 0
        var wakers: [Int: Int32] = [:]
        var nextWaiterID = 0
        /// Wake pairs from finished waits, reused so that a wait costs no descriptor churn.
        var spareWakePairs: [WakePair] = []
    }

    /// The two ends of a private socket pair: a wait polls `read`; a wake writes to `write`.
    private struct WakePair: Sendable {
        var read: Int32
        var write: Int32
    }

    /// Spare wake pairs kept per socket (one reader and one writer wait at a time, in practice).
    private static let maxSpareWakePairs = 4

    private let state: Mutex<State>
    private let readQueue: DispatchQueue
    private let writeQueue: DispatchQueue
    /// Whether ``close()`` first ends the sending direction and drains unread input (a stream), or just closes
    /// (a listening socket).
    private let isStream: Bool

    /// Takes ownership of `descriptor`, which must already be non-blocking.
    init(_ descriptor: Int32, label: String, isStream: Bool = true) {
        state = Mutex(State(descriptor: descriptor))
        readQueue = DispatchQueue(label: "rawcap.ptpip.\(label).read")
        writeQueue = DispatchQueue(label: "rawcap.ptpip.\(label).write")
        self.isStream = isStream
    }

    deinit {
        let (descriptor, spares) = state.withLock { ($0.descriptor, $0.spareWakePairs) }
        if descriptor >= 0 { _ = Glibc.close(descriptor) }
        for pair in spares {
            _ = Glibc.close(pair.read)
            _ = Glibc.close(pair.write)
        }
    }

    /// Whether ``close()`` was called.
    var isClosed: Bool { state.withLock { $0.isClosed } }

    /// Runs `body` with the descriptor, which stays open meanwhile; throws ``ByteStreamError/Code/closed`` once
    /// the socket was closed.
    func withDescriptor<T>(_ what: String, _ body: (Int32) throws(ByteStreamError) -> T) throws(ByteStreamError)
        -> T
    {
        let descriptor: Int32? = state.withLock { state in
            guard !state.isClosed else { return nil }
            state.users += 1
            return state.descriptor
        }
        guard let descriptor else { throw ByteStreamError(.closed, "\(what): socket closed") }
        defer { release() }
        return try body(descriptor)
    }

    /// Waits until the socket is ready, the deadline passes, the socket is closed or the task is cancelled.
    ///
    /// - Throws: ``ByteStreamError`` with ``ByteStreamError/Code/timeout``, ``ByteStreamError/Code/closed`` or
    ///   ``ByteStreamError/Code/cancelled``; ``ByteStreamError/Code/ioError`` when `poll` itself fails.
    func wait(_ readiness: Readiness, until deadline: ContinuousClock.Instant?, _ what: String)
        async throws(ByteStreamError)
    {
        let (closedAlready, spare) = state.withLock { state in (state.isClosed, state.spareWakePairs.popLast()) }
        if closedAlready { throw ByteStreamError(.closed, "\(what): socket closed") }
        let pair: WakePair
        if let spare { pair = spare } else { pair = try Self.makeWakePair(what) }
        let (wakeRead, wakeWrite) = (pair.read, pair.write)
        let registration: (id: Int, descriptor: Int32)? = state.withLock { state in
            guard !state.isClosed else { return nil }
            let id = state.nextWaiterID
            state.nextWaiterID += 1
            state.wakers[id] = wakeWrite
            state.users += 1
            return (id, state.descriptor)
        }
        guard let registration else {
            Self.discard(pair)
            throw ByteStreamError(.closed, "\(what): socket closed")
        }
        defer {
            // Unregister before the pair is reused or closed, so a late wake never reaches another wait.
            let keep = state.withLock { state in
                _ = state.wakers.removeValue(forKey: registration.id)
                guard !state.isClosed, state.spareWakePairs.count < Self.maxSpareWakePairs else { return false }
                Self.drain(pair)
                state.spareWakePairs.append(pair)
                return true
            }
            if !keep { Self.discard(pair) }
            release()
        }
        let queue = readiness == .readable ? readQueue : writeQueue
        let events = Int16(readiness == .readable ? POLLIN : POLLOUT)
        let outcome: PollOutcome = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                queue.async {
                    continuation.resume(
                        returning: Self.poll(registration.descriptor, events: events, wake: wakeRead, until: deadline))
                }
            }
        } onCancel: {
            wake(registration.id)
        }
        switch outcome {
        case .ready:
            return
        case .timedOut:
            throw ByteStreamError(.timeout, "\(what): no progress before the deadline")
        case .woken:
            if self.isClosed { throw ByteStreamError(.closed, "\(what): socket closed") }
            throw ByteStreamError(.cancelled, "\(what): cancelled")
        case .failed(let error):
            throw ByteStreamError(.ioError, underlyingError: error, what)
        }
    }

    /// Marks the socket closed, ends every wait, and releases the descriptor once nothing uses it.
    func close() {
        let descriptor: Int32? = state.withLock { state in
            guard !state.isClosed else { return nil }
            state.isClosed = true
            for pair in state.spareWakePairs { Self.discard(pair) }
            state.spareWakePairs = []
            for waker in state.wakers.values { Self.signal(waker) }
            guard state.users == 0 else { return nil }
            defer { state.descriptor = -1 }
            return state.descriptor
        }
        if let descriptor { finalClose(descriptor) }
    }

    // MARK: Private

    private enum PollOutcome: Sendable {
        case ready
        case timedOut
        case woken
        case failed(SocketError)
    }

    private static func makeWakePair(_ what: String) throws(ByteStreamError) -> WakePair {
        var ends: [Int32] = [-1, -1]
        let flags = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        guard socketpair(AF_UNIX, flags, 0, &ends) == 0 else {
            throw ByteStreamError(.ioError, underlyingError: SocketError.current("socketpair"), what)
        }
        return WakePair(read: ends[0], write: ends[1])
    }

    /// Empties a pair's read end, so a reused pair does not wake its next wait at once.
    private static func drain(_ pair: WakePair) {
        var scratch = [UInt8](repeating: 0, count: 16)
        while recv(pair.read, &scratch, scratch.count, Int32(MSG_DONTWAIT)) > 0 {}
    }

    private static func discard(_ pair: WakePair) {
        _ = Glibc.close(pair.read)
        _ = Glibc.close(pair.write)
    }

    private func release() {
        let descriptor: Int32? = state.withLock { state in
            state.users -= 1
            guard state.isClosed, state.users == 0, state.descriptor >= 0 else { return nil }
            defer { state.descriptor = -1 }
            return state.descriptor
        }
        if let descriptor { finalClose(descriptor) }
    }

    private func wake(_ id: Int) {
        state.withLock { state in
            if let waker = state.wakers[id] { Self.signal(waker) }
        }
    }

    private static func signal(_ waker: Int32) {
        var byte: UInt8 = 1
        _ = Glibc.write(waker, &byte, 1)
    }

    /// Ends a stream gracefully: FIN after the queued bytes, then a bounded drain of unread input, because Linux
    /// answers `close()` with a reset (losing what the peer has not read yet) when unread bytes remain.
    private func finalClose(_ descriptor: Int32) {
        if isStream {
            _ = shutdown(descriptor, Int32(SHUT_WR))
            var scratch = [UInt8](repeating: 0, count: 16 * 1024)
            for _ in 0..<64 {
                let count = recv(descriptor, &scratch, scratch.count, Int32(MSG_DONTWAIT))
                if count <= 0 { break }
            }
        }
        _ = Glibc.close(descriptor)
    }

    private static func poll(_ descriptor: Int32, events: Int16, wake: Int32, until deadline: ContinuousClock.Instant?)
        -> PollOutcome
    {
        while true {
            var timeoutMilliseconds: Int32 = -1
            if let deadline {
                let remaining = deadline - .now
                if remaining <= .zero { return .timedOut }
                let (seconds, attoseconds) = remaining.components
                let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
                timeoutMilliseconds = Int32(clamping: milliseconds)
            }
            var fds = [
                pollfd(fd: descriptor, events: events, revents: 0),
                pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
            ]
            let status = Glibc.poll(&fds, 2, timeoutMilliseconds)
            if status < 0 {
                if errno == EINTR { continue }
                return .failed(SocketError.current("poll"))
            }
            if fds[1].revents != 0 { return .woken }
            // Errors and hang-ups count as ready: the next socket call reports them with their errno.
            if fds[0].revents != 0 { return .ready }
            if status == 0, let deadline, deadline <= .now { return .timedOut }
        }
    }
}
