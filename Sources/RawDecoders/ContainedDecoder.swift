import PlatformSupport
import RawImage
import WireFormat

#if canImport(Glibc)
    import Glibc
#endif

/// LibRaw run where a crash, a hang or a memory blow-up costs one file, not the process (DESIGN.md: "third-party
/// decoders are contained"; Debian's LibRaw 0.20 segfaults and spins forever on crafted files, issue 17).
///
/// One worker process (``DecoderWorker``, started as `executable arguments…`, for rawcap its own binary's hidden
/// `decode-worker` subcommand) serves every file of a command, one at a time, over a Unix socket
/// (``DecoderWire``): starting a process per file would cost more than most decodes. Each request carries the
/// limits, which the worker sets on itself before LibRaw sees the file (`setrlimit`): its CPU-time limit moves to
/// what it has used plus ``Limits/cpuSeconds``, so SIGXCPU ends a decode that spins, and its address space is capped
/// at ``Limits/addressSpaceBytes``; this side waits at most ``Limits/wallSeconds`` for the whole exchange, then kills
/// it. A worker that died or was killed is reaped, the
/// file fails with ``DecodeError/Code-swift.struct/decoderFailed`` (exit 65 in the CLI), and the next file gets a new
/// worker.
///
/// The samples cross once: the worker writes them from its frame to the socket, and this side reads them straight
/// into the new frame's storage.
public final class ContainedDecoder: @unchecked Sendable {
    /// What one file may cost the worker.
    public struct Limits: Sendable, Hashable {
        /// CPU time for one file, in seconds.
        public var cpuSeconds: Int
        /// Wall-clock time for one file (request, decode and reply), in seconds.
        public var wallSeconds: Double
        /// The worker's address space (`RLIMIT_AS`), in bytes.
        public var addressSpaceBytes: Int

        /// 30 s of CPU, 60 s in all, 4 GiB of address space: a 100-megapixel file decodes in about a second and
        /// LibRaw's own raw buffer is capped at 1 GiB (``LibRawDecoder/maxRawMemoryMegabytes``), beside the file
        /// (at most ``RawDecoder/maxFileSize``).
        public init(cpuSeconds: Int = 30, wallSeconds: Double = 60, addressSpaceBytes: Int = 4 << 30) {
            self.cpuSeconds = cpuSeconds
            self.wallSeconds = wallSeconds
            self.addressSpaceBytes = addressSpaceBytes
        }
    }

    /// The worker's program and arguments.
    public let executable: String
    public let arguments: [String]
    /// The limits per file.
    public let limits: Limits

    private let lock = ThreadCondition()
    private var worker: (pid: pid_t, socket: Int32)?
    /// Workers started so far (one, unless files crashed or hung them).
    public private(set) var workersStarted = 0

    /// Creates a decoder that starts `executable arguments…` when it first needs a worker.
    public init(executable: String, arguments: [String], limits: Limits = Limits()) {
        self.executable = executable
        self.arguments = arguments
        self.limits = limits
    }

    deinit { stopWorker() }

    /// ``LibRawDecoder/decode(_:)`` in the worker.
    ///
    /// - Throws: the worker's ``DecodeError``, or ``DecodeError/Code-swift.struct/decoderFailed`` when it crashed,
    ///   hung, ran out of its limits or could not be started.
    public func decode(_ bytes: ArraySlice<UInt8>) throws(DecodeError) -> DecodedRaw {
        try exchange(.decode, bytes) { (header, json, receive) throws(DecodeError) in
            guard header.kind == .frame else { throw DecodeError(.corrupt, "unexpected reply \(header.kind)") }
            let frame = try DecoderWire.decode(DecoderWire.Frame.self, from: json)
            return try frame.decoded { (buffer) throws(DecodeError) in
                guard header.payloadLength == buffer.count * 2 else {
                    throw DecodeError(
                        .corrupt, "the decoder worker sent \(header.payloadLength) bytes for \(buffer.count) samples")
                }
                try receive(UnsafeMutableRawBufferPointer(buffer))
            }
        }
    }

    /// LibRaw's description of the file in the worker, without its samples (``DecoderWire/RequestKind/identify``):
    /// the bytes in `omitted` (the samples, which rawcap decodes itself) are not sent, and the worker reads zeros
    /// in their place.
    func identify(_ bytes: ArraySlice<UInt8>, omitting omitted: Range<Int>) throws(DecodeError) -> DecoderWire.Frame {
        let omitted = omitted.clamped(to: 0..<bytes.count)
        let omission = DecoderWire.Omission(start: omitted.lowerBound, length: omitted.count)
        let start = bytes.startIndex
        let parts = [
            omission.bytes[...], bytes[start..<(start + omitted.lowerBound)],
            bytes[(start + omitted.upperBound)...],
        ]
        return try exchange(.identify, parts) { (header, json, _) throws(DecodeError) in
            guard header.kind == .frame, header.payloadLength == 0 else {
                throw DecodeError(.corrupt, "unexpected reply \(header.kind)")
            }
            return try DecoderWire.decode(DecoderWire.Frame.self, from: json)
        }
    }

    /// ``LibRawDecoder/preview(_:)`` in the worker.
    public func preview(_ bytes: ArraySlice<UInt8>) throws(DecodeError) -> EmbeddedPreview? {
        try exchange(.preview, bytes) { (header, json, receive) throws(DecodeError) in
            guard header.kind == .preview, header.payloadLength <= RawDecoder.maxFileSize else {
                throw DecodeError(.corrupt, "unexpected reply \(header.kind)")
            }
            let thumbnail = try DecoderWire.decode(DecoderWire.Thumbnail.self, from: json)
            var payload = [UInt8](repeating: 0, count: header.payloadLength)
            try Self.fill(&payload, receive)
            switch thumbnail.kind {
            case "jpeg": return .jpeg(payload, width: thumbnail.width, height: thumbnail.height)
            case "rgb":
                return (try? RGBImage8(width: thumbnail.width, height: thumbnail.height, pixels: payload))
                    .map(EmbeddedPreview.rgb)
            default: return nil
            }
        }
    }

    /// Test hook: asks the worker to misbehave as LibRaw does on hostile files (crash, spin, allocate without end,
    /// sleep), so that containment is tested without such a file. Only this side can ask it; no file's content can.
    func misbehave(_ test: DecoderWire.SelfTest) throws(DecodeError) {
        try exchange(.selfTest, [test.rawValue][...]) { (_, _, _) throws(DecodeError) in }
    }

    /// Ends the worker (it exits when its input ends) and waits for it.
    public func stopWorker() {
        lock.lock()
        defer { lock.unlock() }
        guard let current = worker else { return }
        close(current.socket)
        _ = ChildSpawn.waitForExit(current.pid)
        worker = nil
    }

    // MARK: - One exchange

    /// Reads a reply's payload into a buffer, exactly filling it.
    typealias Receive = (UnsafeMutableRawBufferPointer) throws(DecodeError) -> Void
    private typealias Reading<R> = (DecoderWire.ReplyHeader, [UInt8], Receive) throws(DecodeError) -> R

    private func exchange<R>(
        _ kind: DecoderWire.RequestKind, _ bytes: ArraySlice<UInt8>, _ read: Reading<R>
    ) throws(DecodeError) -> R {
        try exchange(kind, [bytes], read)
    }

    /// An exchange whose request payload is `parts`, one after the other.
    private func exchange<R>(
        _ kind: DecoderWire.RequestKind, _ parts: [ArraySlice<UInt8>], _ read: Reading<R>
    ) throws(DecodeError) -> R {
        let length = parts.reduce(0) { $0 + $1.count }
        guard length > 0, kind != .identify || length > DecoderWire.Omission.byteCount else {
            throw DecodeError(.truncated, at: 0, "empty file")
        }
        lock.lock()
        defer { lock.unlock() }
        // A worker found dead before it read anything (it was ended while idle) is replaced once.
        for attempt in 0..<2 {
            let current: (pid: pid_t, socket: Int32)
            if let running = worker { current = running } else { current = try startWorker() }
            worker = current
            let deadline = Self.now() + limits.wallSeconds
            let request = DecoderWire.RequestHeader(
                kind: kind, length: length, cpuSeconds: limits.cpuSeconds,
                addressSpaceMegabytes: limits.addressSpaceBytes >> 20)
            do throws(ExchangeFailure) {
                try Self.send(current.socket, request.bytes, deadline: deadline)
                for part in parts { try Self.send(current.socket, part, deadline: deadline) }
            } catch .closed where attempt == 0 {
                _ = endWorker(current, killing: true)
                continue
            } catch {
                throw failure(error, current)
            }
            let receive: Receive = { (buffer) throws(DecodeError) in
                do throws(ExchangeFailure) {
                    try Self.receiveRaw(current.socket, into: buffer, deadline: deadline)
                } catch {
                    throw self.failure(error, current)
                }
            }
            var headerBytes = [UInt8](repeating: 0, count: DecoderWire.ReplyHeader.byteCount)
            try Self.fill(&headerBytes, receive)
            guard let header = DecoderWire.ReplyHeader(headerBytes) else { throw failure(.malformed, current) }
            var json = [UInt8](repeating: 0, count: header.jsonLength)
            try Self.fill(&json, receive)
            if header.kind == .failure {
                guard header.payloadLength == 0 else { throw failure(.malformed, current) }
                // The worker is fine and waits for the next file.
                throw try DecoderWire.decode(DecoderWire.Failure.self, from: json).error
            }
            do {
                return try read(header, json, receive)
            } catch {
                // Whatever is left of the reply would be read as the next one: start afresh.
                if worker != nil { _ = endWorker(current, killing: true) }
                throw error
            }
        }
        throw DecodeError(.decoderFailed, "the decoder worker ended before it read the file, twice")
    }

    /// Why an exchange stopped.
    enum ExchangeFailure: Error, Equatable {
        /// The worker closed its end (it died).
        case closed
        /// The deadline passed.
        case timedOut
        /// The reply does not follow ``DecoderWire``.
        case malformed
        /// Another socket error.
        case failed(Int32)
    }

    private static func receiveRaw(_ socket: Int32, into buffer: UnsafeMutableRawBufferPointer, deadline: Double)
        throws(ExchangeFailure)
    {
        guard let base = buffer.baseAddress else { return }
        var filled = 0
        while filled < buffer.count {
            try wait(socket, for: Int16(POLLIN), deadline: deadline)
            let count = recv(socket, base + filled, buffer.count - filled, 0)
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw .failed(errno)
            }
            if count == 0 { throw .closed }
            filled += count
        }
    }

    private static func send(_ socket: Int32, _ bytes: [UInt8], deadline: Double) throws(ExchangeFailure) {
        try send(socket, bytes[...], deadline: deadline)
    }

    private static func send(_ socket: Int32, _ bytes: ArraySlice<UInt8>, deadline: Double) throws(ExchangeFailure) {
        var failure: ExchangeFailure?
        bytes.withUnsafeBytes { buffer in
            do throws(ExchangeFailure) {
                try send(socket, buffer, deadline: deadline)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    /// Fills `array` with `receive`.
    private static func fill(_ array: inout [UInt8], _ receive: Receive) throws(DecodeError) {
        var failure: DecodeError?
        array.withUnsafeMutableBytes { buffer in
            do throws(DecodeError) {
                try receive(buffer)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    private static func send(_ socket: Int32, _ buffer: UnsafeRawBufferPointer, deadline: Double)
        throws(ExchangeFailure)
    {
        guard let base = buffer.baseAddress else { return }
        var sent = 0
        while sent < buffer.count {
            try wait(socket, for: Int16(POLLOUT), deadline: deadline)
            // MSG_NOSIGNAL: a worker that died must not take this process down with SIGPIPE.
            let count = Glibc.send(socket, base + sent, buffer.count - sent, Int32(MSG_NOSIGNAL))
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw errno == EPIPE || errno == ECONNRESET ? .closed : .failed(errno)
            }
            sent += count
        }
    }

    /// Waits until `socket` is ready for `events`, at most until `deadline`.
    private static func wait(_ socket: Int32, for events: Int16, deadline: Double) throws(ExchangeFailure) {
        while true {
            let remaining = deadline - now()
            guard remaining > 0 else { throw .timedOut }
            var entry = pollfd(fd: socket, events: events, revents: 0)
            let result = poll(&entry, 1, Int32(min(remaining * 1000, 60_000).rounded(.up)))
            if result < 0 {
                if errno == EINTR { continue }
                throw .failed(errno)
            }
            if result > 0 { return }
        }
    }

    /// Seconds on the monotonic clock.
    package static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    // MARK: - The worker

    private func startWorker() throws(DecodeError) -> (pid: pid_t, socket: Int32) {
        var sockets: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &sockets) == 0 else {
            throw DecodeError(.decoderFailed, "cannot start the decoder worker: \(SystemErrorText.text(errno: errno))")
        }
        let devNull = open("/dev/null", O_WRONLY | O_CLOEXEC)
        defer {
            close(sockets[1])
            if devNull >= 0 { close(devNull) }
        }
        var environment = Self.environment()
        // A crash is an expected outcome here: no backtrace (it takes seconds and says nothing to the user).
        environment["SWIFT_BACKTRACE"] = "enable=no"
        // The worker inherits this thread's signal mask; Swift's pool threads block signals, and SIGXCPU must not be.
        var none = sigset_t()
        var previous = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        let pid: pid_t
        do {
            pid = try ChildSpawn.spawn(
                executable, arguments: arguments, environment: environment, standardInput: sockets[1],
                standardOutput: sockets[1], standardError: devNull >= 0 ? devNull : nil)
        } catch {
            close(sockets[0])
            throw DecodeError(.decoderFailed, "cannot start the decoder worker \(executable): \(error)")
        }
        workersStarted += 1
        _ = fcntl(sockets[0], F_SETFL, fcntl(sockets[0], F_GETFL) | O_NONBLOCK)
        return (pid, sockets[0])
    }

    /// Ends `current` (killing it first when `killing`, else waiting up to 100 ms for it to finish dying) and reaps
    /// it; its exit status (128 + signal when a signal ended it) and whether this side killed it.
    private func endWorker(_ current: (pid: pid_t, socket: Int32), killing: Bool) -> (status: Int32, killed: Bool) {
        close(current.socket)
        worker = nil
        if !killing {
            var status: Int32 = 0
            for _ in 0..<50 {
                let result = waitpid(current.pid, &status, WNOHANG)
                if result == current.pid { return (Self.exitStatus(status), false) }
                if result < 0 && errno != EINTR { return (0, false) }
                usleep(2000)
            }
        }
        kill(current.pid, SIGKILL)
        return (ChildSpawn.waitForExit(current.pid), true)
    }

    /// `waitpid`'s status as ``PlatformSupport/ChildSpawn/waitForExit(_:)`` reports it.
    static func exitStatus(_ status: Int32) -> Int32 {
        let signal = status & 0x7F
        return signal != 0 && signal != 0x7F ? 128 + signal : (status >> 8) & 0xFF
    }

    /// The error for a file whose exchange stopped with `reason`; the worker is ended and reaped.
    private func failure(_ reason: ExchangeFailure, _ current: (pid: pid_t, socket: Int32)) -> DecodeError {
        let ended = endWorker(current, killing: reason != .closed)
        let why: String
        switch (reason, ended.status) {
        case (.timedOut, _):
            why = "LibRaw did not finish within \(Self.seconds(limits.wallSeconds)); the file is refused"
        case (.malformed, _), (.failed, _):
            why = "the decoder worker's reply was unusable (\(reason)); the file is refused"
        case (_, 128 + SIGXCPU):
            why = "LibRaw used more than \(limits.cpuSeconds) s of CPU time on this file"
        case (_, let status) where status > 128 && !ended.killed:
            why = "LibRaw crashed on this file (signal \(status - 128)\(Self.signalName(status - 128)))"
        case (_, let status):
            why =
                "the decoder worker stopped (status \(status)), perhaps out of its \(limits.addressSpaceBytes >> 20) MiB of memory"
        }
        return DecodeError(.decoderFailed, why)
    }

    static func signalName(_ signal: Int32) -> String {
        switch signal {
        case SIGSEGV: ", SIGSEGV"
        case SIGBUS: ", SIGBUS"
        case SIGABRT: ", SIGABRT"
        case SIGILL: ", SIGILL"
        case SIGTRAP: ", SIGTRAP"
        case SIGFPE: ", SIGFPE"
        default: ""
        }
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }

    /// This process's environment, from `environ`.
    static func environment() -> [String: String] {
        var result: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            pointer += 1
        }
        return result
    }
}

