import ArgumentParser
import CameraEmulator
import Dispatch
import FoundationEssentials
import Logging
import PTP
import PTPIP
import PTPRecord
import PlatformSupport
import Synchronization
import RawExport

#if canImport(Glibc)
    import Glibc
#endif

extension RawcapCommand.Sim {
    /// `rawcap sim serve [--listen HOST:PORT] [--from replay:FILE] [--fault …] [--json]`: the emulated camera (or a
    /// recording) as a PTP/IP camera on the network, for any PTP/IP client.
    struct Serve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "serve",
            abstract: "Serve the emulated camera (or a recording) as a PTP/IP camera on the network.",
            discussion: """
                Listens on 127.0.0.1:15740 unless --listen says otherwise (port 0 picks a free port) and prints \
                one line on standard output once it listens, with the real address: `rawcap sim serve: listening \
                on 127.0.0.1:15740 …`, or with --json an object with the keys "address", "host", "port", \
                "camera" and "source". Clients are served one after another (a second client meanwhile is refused \
                with Init Fail "busy", as cameras do); the memory card and its pictures stay from one client to \
                the next. Every request is answered at once; a shot develops in the background and is announced \
                with ObjectAdded and CaptureComplete events.
                With --from replay:FILE the recording's camera answers instead (lenient replay: recorded replies \
                per request, camera-like answers for the rest), from the top for each client.
                Try it: `gphoto2 --port ptpip:127.0.0.1:15740 --summary` (for another port give it twice: \
                ptpip:127.0.0.1:PORT:PORT). SIGINT or SIGTERM closes the connections and exits 0. SIGUSR2 presses \
                the emulated body's shutter button once, as --press-every does on a schedule (for rawcap tether).
                With --model fuji the camera listens the Fujifilm way instead: its PTP/IP variant on port 55740 \
                (unless --listen says otherwise), events on the port above it and live view on the next; connect \
                with `rawcap … --camera fujiptpip:127.0.0.1` (or ptpip:HOST:55740), or `gphoto2 --camera \
                "Fuji X (WLAN)" --port ptpip:127.0.0.1:55740`.
                Exit status: 0 when stopped; 64 for a bad option; 65 when the recording does not load; 69 when the \
                address cannot be bound; 73 when --record cannot create its file; 77 when the port needs privileges.
                """)

        @Option(
            help: ArgumentHelp(
                "The address to listen on: HOST[:PORT] or [IPV6][:PORT], numeric or localhost; port 0 picks a free one.",
                valueName: "host:port"))
        var listen = "127.0.0.1:15740"

        @Option(
            name: .customLong("from"),
            help: ArgumentHelp("Serve a recording instead of the emulated camera: replay:FILE.", valueName: "source"))
        var source: String?

        @OptionGroup(title: "Emulated camera")
        var emulator: EmulatorOptions

        @Option(
            help: ArgumentHelp(
                "Record every client's connections to a new pcapng file (Wireshark opens it).",
                valueName: "file.pcapng"))
        var record: String?

        @Flag(help: "Print the listening line as one JSON object.")
        var json = false

        @Flag(name: [.short, .long], help: "Log clients and PTP traffic to standard error (twice: with hex dumps).")
        var verbose: Int

        func validate() throws {
            _ = try Self.parseListenAddress(listen)
            if let source {
                _ = try Self.replayPath(source)
                let e = emulator
                guard e.model == "generic", e.sensor == nil, e.faults.isEmpty, e.sleepAfter == nil, e.cardCapacity == nil, e.seed == 0,
                    e.eventOrder == .standard
                else {
                    throw ValidationError(
                        "--from serves a recording as it is: the emulated camera's options do not apply.")
                }
            }
            if let record, record.isEmpty { throw ValidationError("--record needs a file name.") }
        }

        func run() async throws {
            var logger = Logger(label: "rawcap.sim.serve") { StreamLogHandler.standardError(label: $0) }
            logger.logLevel = verbose >= 2 ? .trace : verbose == 1 ? .debug : .notice
            do {
                try await serve(logger: logger)
            } catch let failure as CommandFailure {
                throw CommandFailure.report(failure, command: "sim serve", json: json)
            }
        }

        private func serve(logger: Logger) async throws {
            if source == nil {
                let camera = try emulator.settings.makeCamera()
                if camera.model.personality == .fujifilm { return try await serveFujifilm(camera, logger: logger) }
            }
            let (host, port) = try Self.parseListenAddress(listen)
            let address = try await Self.resolve(host, port: port)
            let backend = try makeBackend(logger: logger)
            let recorder: PcapngRecorder?
            do {
                recorder = try record.map {
                    try PcapngRecorder(
                        path: $0, configuration: .init(rawcapVersion: RawcapVersion.current, cameraModel: backend.name))
                }
            } catch {
                throw CommandFailure(SysExit.cannotCreate, "cannot record: \(error)")
            }
            let server = PTPIPServer(
                configuration: .init(device: .init(friendlyName: backend.name)), logger: logger,
                makeResponder: backend.makeResponder)
            let listener: PTPIPListener
            do {
                listener = try PTPIPListener(
                    address: address, server: server, wrapConnection: recorder.map(Self.recordingWrapper),
                    logger: logger)
            } catch {
                await recorder?.close()
                let status = error.code == .permissionDenied ? ExitCode(77) : ExitCode(69)
                throw CommandFailure(status, "cannot listen on \(address): \(error)")
            }
            let stop = StopSignal()
            Self.watchSignals(pressing: backend.camera, logger: logger) { stop.fire(bySignal: true) }
            if let camera = backend.camera { emulator.settings.startPresses(camera, logger: logger) }
            let serving = Task {
                await listener.run()
                // Only stop() or a failing accept end run(): the latter must not leave a server that serves no one.
                stop.fire(bySignal: false)
            }
            // Unbuffered, so a script or test reading the pipe sees the line at once.
            // A closed standard output is ignored, not a trap (the line is for whoever reads it).
            DescriptorIO.writeStandardOutput(listeningLine(listener.localAddress, backend: backend) + "\n")
            await stop.wait()
            logger.info("stopping")
            await listener.stop()
            await serving.value
            await recorder?.close()
            let clients = await server.finishedClients
            logger.info(
                "served \(clients.count) clients, \(clients.map(\.requests.count).reduce(0, +)) requests")
            guard stop.bySignal else {
                throw CommandFailure(SysExit.ioError, "accepting connections on \(listener.localAddress) failed")
            }
        }

        /// `--model fuji`: the camera on Fujifilm's PTP/IP variant (command port, event port above it).
        private func serveFujifilm(_ camera: EmulatedCamera, logger: Logger) async throws {
            var (host, port) = try Self.parseListenAddress(listen)
            if listen == "127.0.0.1:15740" { port = FujifilmPTPIP.commandPort }
            let address = try await Self.resolve(host, port: port)
            let recorder: PcapngRecorder?
            do {
                recorder = try record.map {
                    try PcapngRecorder(
                        path: $0,
                        configuration: .init(rawcapVersion: RawcapVersion.current, cameraModel: camera.model.model))
                }
            } catch {
                throw CommandFailure(SysExit.cannotCreate, "cannot record: \(error)")
            }
            let listener: FujiPTPIPListener
            do {
                listener = try FujiPTPIPListener(
                    address: address, friendlyName: camera.model.model,
                    wrapConnection: recorder.map(Self.recordingWrapper), logger: logger
                ) { _ in
                    // One host at a time: a new one means the previous one has gone.
                    await camera.connectionClosed()
                    return camera
                }
            } catch {
                await recorder?.close()
                let status = error.code == .permissionDenied ? ExitCode(77) : ExitCode(69)
                throw CommandFailure(status, "cannot listen on \(address): \(error)")
            }
            let stop = StopSignal()
            Self.watchSignals(pressing: camera, logger: logger) { stop.fire(bySignal: true) }
            emulator.settings.startPresses(camera, logger: logger)
            let serving = Task {
                await listener.run()
                stop.fire(bySignal: false)
            }
            let backend = Backend(name: camera.model.model, source: "emulator", camera: camera) { _ in camera }
            let line = listeningLine(listener.localAddress, backend: backend).replacing(
                "(PTP/IP,",
                with:
                    "(Fujifilm PTP/IP, events on \(listener.eventAddress.port), live view on \(listener.liveViewAddress.port),")
            DescriptorIO.writeStandardOutput(line + "\n")
            await stop.wait()
            logger.info("stopping")
            await listener.stop()
            await serving.value
            await recorder?.close()
            guard stop.bySignal else {
                throw CommandFailure(SysExit.ioError, "accepting connections on \(listener.localAddress) failed")
            }
        }

        /// What answers the clients: the emulated camera, or a recording.
        private struct Backend {
            /// The camera's name in Init Command Ack and in the listening line.
            var name: String
            /// `emulator` or `replay:FILE`.
            var source: String
            /// The emulated camera (`nil` for a recording): SIGUSR2 and `--press-every` press its shutter button.
            var camera: EmulatedCamera? = nil
            var makeResponder: PTPIPServer.ResponderFactory
        }

        private func makeBackend(logger: Logger) throws -> Backend {
            if let source {
                let path = try Self.replayPath(source)
                let conversation: PTPConversation
                do {
                    conversation = try PTPConversation.load(path: path)
                } catch {
                    throw CommandFailure(SysExit.dataError, "the recording cannot be read: \(error)")
                }
                guard !conversation.transactions.isEmpty else {
                    throw CommandFailure(SysExit.dataError, "\(path) holds no PTP transactions to replay")
                }
                let name = conversation.responderName ?? conversation.cameraModel ?? "rawcap replay"
                return Backend(name: name, source: "replay:\(path)") { hello in
                    logger.info("replaying \(path) to \"\(hello.friendlyName)\" from the top")
                    return ReplayResponder(conversation: conversation, mode: .lenient, logger: logger)
                }
            }
            let camera = try emulator.settings.makeCamera()
            return Backend(name: camera.model.model, source: "emulator", camera: camera) { hello in
                // A camera away from the network (asleep, switched off: sleep-after=, disappear-after=) answers no
                // one; a knock wakes a sleeping one shortly after.
                guard await camera.acceptsConnection() else {
                    logger.info("refusing \"\(hello.friendlyName)\": the camera is asleep or switched off")
                    throw EmulatorError(.invalidConfiguration, "the camera is away from the network")
                }
                // Only one client is served at a time, so a new one means the previous one has gone: its session
                // ends (the card, the settings and a shot in progress stay).
                await camera.connectionClosed()
                logger.info("serving \"\(hello.friendlyName)\"")
                return camera
            }
        }

        private func listeningLine(_ address: SocketAddress, backend: Backend) -> String {
            guard json else {
                return "rawcap sim serve: listening on \(address) (PTP/IP, \(backend.name), \(backend.source))"
            }
            // JSONEncoder writes what JSONSerialization wrote for these keys and values (sorted keys, escaped
            // slashes).
            let object = ListeningLine(
                address: address.description, camera: backend.name, host: address.host, port: Int(address.port),
                source: backend.source)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let data = (try? encoder.encode(object)) ?? Data("{}".utf8)
            return String(decoding: data, as: UTF8.self)
        }

        /// Wraps each accepted connection in a recorder: a TCP stream of its own in the pcapng file.
        private static func recordingWrapper(_ recorder: PcapngRecorder) -> PTPIPListener.ConnectionWrapper {
            { stream in
                let client = TCPEndpoint(address: stream.remoteAddress.addressBytes, port: stream.remoteAddress.port)
                let server = TCPEndpoint(address: stream.localAddress.addressBytes, port: stream.localAddress.port)
                return try await RecordingByteStream.start(
                    wrapping: stream, recorder: recorder, client: client, server: server, side: .server)
            }
        }

        // MARK: Parsing

        /// `HOST[:PORT]`, `[IPV6][:PORT]` or `:PORT`; the port may be 0. The host is checked by ``resolve(_:port:)``.
        static func parseListenAddress(_ text: String) throws -> (host: String, port: UInt16) {
            var host = Substring(text)
            var portText: Substring?
            if host.hasPrefix("[") {
                guard let close = host.firstIndex(of: "]") else {
                    throw ValidationError("--listen \(text): missing ']'")
                }
                let rest = host[host.index(after: close)...]
                host = host[host.index(after: host.startIndex)..<close]
                if !rest.isEmpty {
                    guard rest.hasPrefix(":") else { throw ValidationError("--listen \(text): unexpected \"\(rest)\"") }
                    portText = rest.dropFirst()
                }
            } else if host.filter({ $0 == ":" }).count == 1, let colon = host.firstIndex(of: ":") {
                portText = host[host.index(after: colon)...]
                host = host[..<colon]
            }
            var port = PTPIPAddress.defaultPort
            if let portText {
                guard let value = UInt16(portText) else {
                    throw ValidationError("--listen \(text): the port must be a number from 0 to 65535")
                }
                port = value
            }
            let name = host.isEmpty ? "127.0.0.1" : String(host)
            guard name == "localhost" || SocketAddress(numericHost: name, port: port) != nil else {
                throw ValidationError(
                    "--listen \(text): give a numeric address (127.0.0.1, 0.0.0.0, ::1, [::]) or localhost")
            }
            return (name, port)
        }

        static func resolve(_ host: String, port: UInt16) async throws -> SocketAddress {
            if host == "localhost" { return .loopback(port: port) }
            guard let address = SocketAddress(numericHost: host, port: port) else {
                throw ValidationError("--listen: \(host) is not a numeric address")
            }
            return address
        }

        /// `replay:FILE` → FILE.
        static func replayPath(_ source: String) throws -> String {
            guard source.hasPrefix("replay:"), source.count > "replay:".count else {
                throw ValidationError("--from \(source): expected replay:FILE")
            }
            return String(source.dropFirst("replay:".count))
        }

        // MARK: Signals

        /// SIGINT and SIGTERM call `handler` (on a thread of their own) instead of ending the process, from the
        /// moment this returns, so a signal right after the listening line is never lost; with an emulated camera,
        /// SIGUSR2 presses its shutter button once (``EmulatedCamera/pressShutter(timeout:)``). The watch lasts as
        /// long as the process.
        private static func watchSignals(
            pressing camera: EmulatedCamera?, logger: Logger, _ handler: @escaping @Sendable () -> Void
        ) {
            let signals = camera == nil ? [SIGINT, SIGTERM] : [SIGINT, SIGTERM, SIGUSR2]
            let watch = SignalWatch(signals) { number, _ in
                guard number == SIGUSR2 else { return handler() }
                guard let camera else { return }
                let pressed = ContinuousClock.now
                Task {
                    let code = await camera.pressShutter()
                    guard code == .ok else { return logger.warning("shutter press (SIGUSR2) refused: \(code)") }
                    // How long the body took to develop and announce the shot (`make bench-peers` subtracts it).
                    let (whole, fraction) = (ContinuousClock.now - pressed).components
                    let seconds = String(cFormat: "%.4f", Double(whole) + Double(fraction) / 1e18)
                    logger.notice("shutter press (SIGUSR2): shot announced after \(seconds) s")
                }
            }
            // Kept for the process's lifetime: serving ends with the process.
            _ = Unmanaged.passRetained(watch)
        }
    }
}

/// The `--json` listening line's object.
private struct ListeningLine: Encodable {
    var address: String
    var camera: String
    var host: String
    var port: Int
    var source: String
}

/// A one-shot flag that a signal handler sets and the serving task waits for.
private final class StopSignal: Sendable {
    private struct State {
        var fired = false
        var signalled = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    /// Whether a signal (rather than the listener ending) stopped the server.
    var bySignal: Bool { state.withLock { $0.signalled } }

    /// Stops the server; the first call decides ``bySignal``.
    func fire(bySignal: Bool) {
        let waiter = state.withLock { state in
            if !state.fired { state.signalled = bySignal }
            state.fired = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let fired = state.withLock { state in
                if !state.fired { state.waiter = continuation }
                return state.fired
            }
            if fired { continuation.resume() }
        }
    }
}
