import ArgumentParser
import CameraControl
import Capture
import DNG
import FoundationEssentials
import JPEG
import Logging
import PTP
import PlatformSupport
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

extension RawcapCommand {
    /// `rawcap live`: the camera's live view as a stream of JPEG frames.
    struct Live: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Stream the camera's live view as JPEG frames (MJPEG).",
            discussion: """
                Starts live view the maker's way (Canon EOS GetViewFinderData, Nikon GetLiveViewImage, Sony's live \
                view object, Fujifilm's over USB) and writes each new frame. A camera that drops out of live view \
                or keeps answering busy gets it started again. Frame rate and counts go to standard error once a \
                second. Ctrl-C or SIGTERM ends live view on the camera and closes the session (exit 130 or 143); \
                --frames and --for end it with 0, and so does a reader that closes the stream.
                Webcam: rawcap live --mjpeg - | ffmpeg -f mjpeg -i - -pix_fmt yuv420p -f v4l2 /dev/video0 (with \
                v4l2loopback; docs/live-view.md).
                --http 127.0.0.1:8080 serves the stream and a page with the frame rate, the exposure settings and a \
                shutter; the shutter, or SIGUSR1, pauses live view, shoots one frame through the shoot pipeline into \
                -o (DNG, journal), and resumes.
                Exit status: 0; 64 for bad options; 69 when the camera has no live view rawcap can read (the reason \
                is printed); 74 when the camera disconnects; 130/143 when interrupted.
                """)

        @OptionGroup var connection: ConnectionOptions

        @Option(help: ArgumentHelp("Write the frames, one JPEG after another, to this file; - is standard output.", valueName: "path"))
        var mjpeg: String?

        @Option(help: "Stop after this many frames.")
        var frames: Int?

        @Option(name: .customLong("for"), help: ArgumentHelp("Stop after this long: 500ms, 10s, 2m.", valueName: "duration"))
        var duration: String?

        @Flag(help: "One JSON line per frame, and a summary, on standard output (not with --mjpeg -).")
        var json = false

        @Option(
            help: ArgumentHelp(
                "Serve the stream (/stream), a page with a shutter (/) and /status over HTTP on HOST:PORT (loopback unless you name another address).",
                valueName: "address"))
        var http: String?

        @Option(name: [.short, .long], help: ArgumentHelp("Where shots taken during live view go (the page's shutter, SIGUSR1).", valueName: "dir"))
        var output = "captures"

        func validate() throws {
            if let frames, frames < 1 { throw ValidationError("--frames must be at least 1") }
            if let duration { _ = try ShootPlan.parseDuration(duration) }
            if json && mjpeg == "-" {
                throw ValidationError("--json and --mjpeg - would both write to standard output; give --mjpeg a file")
            }
        }

        /// One `--json` line per frame (docs/json.md, "rawcap live").
        struct FrameLine: Encodable {
            var event = "frame"
            var frame: Int
            var size: Int
            var width: Int
            var height: Int
            /// Seconds since live view started.
            var time: Double
            /// From the request that returned the frame to its last byte written, in milliseconds.
            var latency: Double
            var cameraFrame: UInt32?
        }

        /// The last `--json` line.
        struct SummaryLine: Encodable {
            var event = "summary"
            var camera: String
            var frames: Int
            var dropped: Int
            var restarts: Int
            var seconds: Double
            var fps: Double
            var protocolName: String

            enum CodingKeys: String, CodingKey {
                case event, camera, frames, dropped, restarts, seconds, fps
                case protocolName = "protocol"
            }
        }

        func run() async throws {
            nonisolated(unsafe) let connection = connection
            let limit = frames
            let maximum = try duration.map(ShootPlan.parseDuration)
            let json = json
            let output: Int32
            var opened: Int32?
            switch mjpeg {
            case nil: output = -1
            case "-": output = STDOUT_FILENO
            case let path?:
                let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
                guard descriptor >= 0 else {
                    throw CommandFailure.report(
                        CommandFailure(.cannotCreate, "cannot create \(path): \(String(cString: strerror(errno)))"),
                        command: "live", json: json)
                }
                output = descriptor
                opened = descriptor
            }
            defer { if let opened { close(opened) } }
            // A reader that goes away (ffmpeg quits) shows as EPIPE from write, not as a silent kill.
            signal(SIGPIPE, SIG_IGN)
            let stop = LiveStop()
            let shots = LiveShotQueue()
            let watch = SignalWatch([SIGINT, SIGTERM, SIGUSR1]) { number, count in
                if number == SIGUSR1 {
                    _ = shots.request()
                    return
                }
                guard count == 1, stop.request(number) else { SignalWatch.dieByDefaultAction(of: number) }
            }
            defer { watch.stop() }
            do {
                let server = try http.map { try LiveHTTPServer(address: $0, shots: shots) }
                try await Self.stream(
                    connection: connection, output: output, limit: limit, maximum: maximum, json: json, stop: stop,
                    server: server, shots: shots, shotFolder: self.output)
            } catch {
                throw ShootFailure.report(error, command: "live", json: json)
            }
        }

        static func stream(
            connection: ConnectionOptions, output: Int32, limit: Int?, maximum: Duration?, json: Bool, stop: LiveStop,
            server: LiveHTTPServer? = nil, shots: LiveShotQueue = LiveShotQueue(), shotFolder: String = "captures"
        ) async throws {
            let logger = connection.logger
            let camera = try await CameraConnector.connect(connection)
            let source: LiveViewSource
            let model: String
            do {
                let identity = try await camera.open()
                model = identity.deviceInfo.model
                source = try LiveViewSource(session: camera.session, identity: identity, logger: logger)
            } catch let error as LiveViewError {
                await Task {
                    try? await camera.session.endSession()
                    await camera.close()
                }.value
                throw CommandFailure(.notAvailable, "no live view: \(error.description)")
            } catch {
                await Task {
                    try? await camera.session.endSession()
                    await camera.close()
                }.value
                throw error
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let statusIsTerminal = isatty(STDERR_FILENO) == 1
            var exposure = ""
            if server != nil {
                let settings = CameraSettings(
                    session: camera.session, deviceInfo: try await camera.session.deviceInfo(), logger: logger)
                var parts: [String] = []
                for name in ["shutter", "aperture", "iso"] {
                    if let value = try? await settings.get([name]).first?.value {
                        parts.append(name == "iso" ? "ISO \(value)" : value)
                    }
                }
                exposure = parts.joined(separator: " · ")
            }
            defer { server?.close() }
            if let server {
                server.start()
                DescriptorIO.writeStandardError("live: serving http://\(server.host):\(server.port)/\n")
            }
            var count = 0
            var dropped = 0
            var start: ContinuousClock.Instant?
            var lastStatus = ContinuousClock.now
            var readerLeft = false
            var failure: (any Error)?
            do {
                try await source.start()
                start = .now
                while !stop.isRequested {
                    if let limit, count >= limit { break }
                    if let maximum, let start, ContinuousClock.now - start >= maximum { break }
                    let frame = try await source.nextFrame()
                    guard let size = try? JPEGImage.size(of: frame.jpeg) else {
                        dropped += 1
                        logger.warning("live view: a frame of \(frame.jpeg.count) bytes is not a JPEG; skipped")
                        continue
                    }
                    if output >= 0 {
                        guard Self.writeAll(frame.jpeg, to: output) else {
                            if errno == EPIPE {
                                readerLeft = true
                                break
                            }
                            throw CommandFailure(.io, "writing a frame: \(String(cString: strerror(errno)))")
                        }
                    }
                    count += 1
                    let written = ContinuousClock.now
                    if let server, let start {
                        let status = LiveStatus(
                            camera: model, frames: count,
                            fps: Double(count) / max((written - start).seconds, 0.001), exposure: exposure)
                        server.publish(
                            number: count, jpeg: frame.jpeg,
                            status: String(decoding: try encoder.encode(status), as: UTF8.self))
                    }
                    while let shot = shots.take() {
                        await Self.shoot(
                            shot, source: source, camera: camera, folder: shotFolder, logger: logger, encoder: encoder)
                    }
                    if json, let start {
                        let line = FrameLine(
                            frame: count, size: frame.jpeg.count, width: size.width, height: size.height,
                            time: (frame.received - start).seconds, latency: (written - frame.requested).seconds * 1000,
                            cameraFrame: frame.cameraFrameNumber)
                        DescriptorIO.writeStandardOutput(String(decoding: try encoder.encode(line), as: UTF8.self) + "\n")
                    }
                    if written - lastStatus >= .seconds(1), let start {
                        lastStatus = written
                        let restarts = await source.restarts
                        let rate = Double(count) / max((written - start).seconds, 0.001)
                        DescriptorIO.writeStandardError(
                            "live: \(count) frames, \(String(cFormat: "%.1f", rate)) fps, \(dropped) dropped, \(restarts) restarts"
                                + (statusIsTerminal ? "\r" : "\n"))
                    }
                }
            } catch {
                failure = error
            }
            // In a task of its own, so that live view ends on the camera after Ctrl-C too.
            await Task {
                await source.stop()
                try? await camera.session.endSession()
                await camera.close()
            }.value
            let seconds = start.map { (ContinuousClock.now - $0).seconds } ?? 0
            let restarts = await source.restarts
            let method = await source.methodDescription
            let rate = Double(count) / max(seconds, 0.001)
            DescriptorIO.writeStandardError(
                (statusIsTerminal ? "\n" : "")
                    + "live: \(count) frames in \(String(cFormat: "%.1f", seconds)) s, \(String(cFormat: "%.1f", rate)) fps, \(dropped) dropped, \(restarts) restarts (\(method))"
                    + (readerLeft ? "; the reader closed the stream" : "") + "\n")
            if json {
                let summary = SummaryLine(
                    camera: model, frames: count, dropped: dropped, restarts: restarts, seconds: seconds, fps: rate,
                    protocolName: method)
                DescriptorIO.writeStandardOutput(String(decoding: try encoder.encode(summary), as: UTF8.self) + "\n")
            }
            if let failure, !stop.isRequested { throw failure }
            switch stop.signal {
            case SIGINT: throw CommandFailure(.interrupted, "interrupted (Ctrl-C); live view ended after \(count) frames")
            case SIGTERM: throw CommandFailure(.terminated, "terminated (SIGTERM); live view ended after \(count) frames")
            default: break
            }
        }

        /// The page's `/status`.
        struct LiveStatus: Encodable {
            var camera: String
            var frames: Int
            var fps: Double
            var exposure: String
        }

        /// One shot during live view: live view pauses (ends on the camera), the `shoot` pipeline takes a frame
        /// into `folder` (DNG, journal), and live view starts again.
        static func shoot(
            _ shot: LiveShotRequest, source: LiveViewSource, camera: CameraConnection, folder: String,
            logger: Logger, encoder: JSONEncoder
        ) async {
            struct Saved: Encodable { var files: [String] }
            struct Failed: Encodable { var error: String }
            await source.stop()
            do {
                let store = try OutputStore(folder: folder)
                let runner = CaptureRunner(
                    session: camera.session, plan: ShootPlan(format: .auto, count: 1), store: store,
                    journal: try Journal(folder: store.folder), logger: logger, usbVendorID: camera.link.usbVendorID,
                    usbProductID: camera.link.usbProductID)
                let summary = try await runner.run()
                let files = summary.files.map(\.path)
                DescriptorIO.writeStandardError("live: saved \(files.joined(separator: ", "))\n")
                shot.complete(status: 200, body: String(decoding: (try? encoder.encode(Saved(files: files))) ?? Data(), as: UTF8.self))
            } catch {
                let message = ShootFailure.failure(error).message
                DescriptorIO.writeStandardError("live: the shot failed: \(message)\n")
                shot.complete(status: 500, body: String(decoding: (try? encoder.encode(Failed(error: message))) ?? Data(), as: UTF8.self))
            }
            do {
                try await source.start()
            } catch {
                logger.warning("live view did not start again after the shot: \(error)")
            }
        }

        /// Writes all of `bytes`; `false` with `errno` set when a write fails.
        static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
            bytes.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let count = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                    if count < 0 {
                        if errno == EINTR { continue }
                        return false
                    }
                    offset += count
                }
                return true
            }
        }
    }
}

/// The first SIGINT or SIGTERM of a live stream: the loop ends after the frame in hand.
final class LiveStop: Sendable {
    private let value = Mutex<Int32>(0)

    /// Records the first signal; `false` when one came before.
    func request(_ number: Int32) -> Bool {
        value.withLock { value in
            guard value == 0 else { return false }
            value = number
            return true
        }
    }

    var isRequested: Bool { value.withLock { $0 != 0 } }
    var signal: Int32 { value.withLock { $0 } }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
