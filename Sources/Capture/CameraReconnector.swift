import FoundationEssentials
import Logging
import PTP
import Synchronization

/// `--reconnect`: when the camera goes away in the middle of a run (a cable pulled, a body asleep or switched off
/// and on, Wi-Fi lost), waits for the same camera to come back and hands its new link to the run's own
/// ``PTP/PTPSession`` (``PTP/PTPSession/adoptTransport(of:)``), so every part of the run (drivers, settings,
/// downloader) goes on with the session object it holds.
///
/// The same camera is the one with the same serial number in DeviceInfo. How it is looked for is the caller's
/// ``Connect`` closure (the CLI's `CameraConnector`: over PTP/IP the same host, over USB any bus address with that
/// serial number); this type does the waiting, the identity check, the session and the journal's `camera-lost`
/// and `camera-back`. ``CaptureRunner`` and ``Puller`` use it; any command that holds a session can.
public final class CameraReconnector: Sendable {
    /// A fresh link to a camera, its session not opened yet.
    public struct Link: Sendable {
        /// A session over the new link (only its transport is used).
        public var session: PTPSession
        /// The camera's USB idVendor when it is on USB.
        public var usbVendorID: USBVendorID?
        /// The camera's USB idProduct when it is on USB.
        public var usbProductID: UInt16?
        /// Where it is, for people.
        public var location: String
        /// Releases what the link holds beyond the transport (a recorder, a USB context).
        public var close: @Sendable () async -> Void

        /// Creates a link.
        public init(
            session: PTPSession, usbVendorID: USBVendorID? = nil, usbProductID: UInt16? = nil, location: String,
            close: @escaping @Sendable () async -> Void
        ) {
            self.session = session
            self.usbVendorID = usbVendorID
            self.usbProductID = usbProductID
            self.location = location
            self.close = close
        }
    }

    /// Opens a link to the camera with this serial number (the serial is a hint: the identity is checked here).
    public typealias Connect = @Sendable (_ serialNumber: String) async throws -> Link

    /// How long to wait, and how often to look.
    public struct Options: Sendable {
        /// The longest wait for one return; `nil` waits until Ctrl-C.
        public var timeout: Duration?
        /// Time between attempts.
        public var retryInterval: Duration

        /// Creates options.
        public init(timeout: Duration? = nil, retryInterval: Duration = .seconds(1)) {
            self.timeout = timeout
            self.retryInterval = retryInterval
        }
    }

    /// The options.
    public let options: Options
    private let connect: Connect
    /// Closes the link in use (the first one, then each reconnected one), until it is closed.
    private let current: Mutex<(@Sendable () async -> Void)?>
    private let returns = Mutex(0)

    /// Creates a reconnector that finds the camera with `connect`. `closeFirstLink` releases the link the run
    /// started on: it is called when the camera is lost (a camera that only timed out is still on the bus, and
    /// holds no second claim) or by ``closeLinks()``, once either way.
    public init(
        options: Options = Options(), closeFirstLink: (@Sendable () async -> Void)? = nil,
        connect: @escaping Connect
    ) {
        self.options = options
        self.connect = connect
        current = Mutex(closeFirstLink)
    }

    /// How many times the camera came back.
    public var returnCount: Int { returns.withLock { $0 } }

    /// Whether `error` means the camera left the link (rather than refusing something): the link broke, timed
    /// out or failed, or the camera answers as one that restarted (SessionNotOpen).
    public static func meansCameraGone(_ error: any Error) -> Bool {
        switch error {
        case let error as TransportError:
            return [.disconnected, .closed, .timeout, .ioError].contains(error.code)
        case let error as PTPError:
            return error.response == .sessionNotOpen
        case let error as CaptureError:
            return error.code == .downloadStalled
        case is ByteStreamError, is USBPipeError:
            return true
        default:
            return false
        }
    }

    /// Waits for the camera with `serialNumber`, moves its link into `session` and opens the session there;
    /// returns the camera's identity. A camera with another serial number is let go and the wait goes on.
    ///
    /// - Throws: ``CaptureError/Code-swift.struct/interrupted`` when `stop` fires (Ctrl-C, SIGTERM) during the
    ///   wait; ``CaptureError/Code-swift.struct/cameraGone`` when ``Options/timeout`` passes.
    public func waitForCamera(
        serialNumber: String, into session: PTPSession, stop: StopSignal, logger: Logger
    ) async throws -> CameraIdentity {
        // The lost link is let go first: a camera that only stopped answering still holds it (a USB interface
        // claimed, a PTP/IP camera serving one host at a time).
        await takeCurrent()?()
        let clock = ContinuousClock()
        let start = clock.now
        var attempts = 0
        var lastProblem = "no answer yet"
        while true {
            if stop.isRequested {
                throw CaptureError(.interrupted, "stopped while waiting for the camera to come back")
            }
            if let timeout = options.timeout, clock.now - start >= timeout {
                throw CaptureError(
                    .cameraGone,
                    "the camera (serial \(serialNumber)) did not come back within \(timeout) (\(lastProblem))")
            }
            attempts += 1
            do {
                let link = try await connect(serialNumber)
                do {
                    // GetDeviceInfo is legal outside a session: the serial number is checked before anything else.
                    let info = try await link.session.getDeviceInfo()
                    guard info.serialNumber == serialNumber else {
                        lastProblem = "found serial \(info.serialNumber) at \(link.location)"
                        logger.info("\(lastProblem); still waiting for \(serialNumber)")
                        await link.close()
                        throw Retry()
                    }
                    await session.adoptTransport(of: link.session)
                    try await session.openSession()
                    let identity = try await session.cameraIdentity(
                        usbVendorID: link.usbVendorID, usbProductID: link.usbProductID)
                    let previous = current.withLock { current in
                        defer { current = link.close }
                        return current
                    }
                    await previous?()
                    returns.withLock { $0 += 1 }
                    logger.info("camera \(serialNumber) back at \(link.location) after \(attempts) attempt(s)")
                    return identity
                } catch is Retry {
                } catch {
                    lastProblem = "\(error)"
                    logger.debug("camera \(serialNumber) not back yet: \(error)")
                    await link.close()
                }
            } catch {
                lastProblem = "\(error)"
                logger.debug("camera \(serialNumber) not back yet: \(error)")
            }
            if await stop.sleep(until: clock.now + options.retryInterval) {
                throw CaptureError(.interrupted, "stopped while waiting for the camera to come back")
            }
        }
    }

    /// The reconnect as runs do it: `camera-lost` in the journal and to the observer, the wait, `camera-back`
    /// with the time the camera was away. `shot` is the frame the loss interrupted, if any.
    public func recover(
        from error: any Error, session: PTPSession, serialNumber: String, shot: Int?, journal: Journal,
        observer: @Sendable (CaptureEvent) -> Void, stop: StopSignal, logger: Logger
    ) async throws -> CameraIdentity {
        let clock = ContinuousClock()
        let lostAt = clock.now
        var lost = JournalEntry(JournalEntry.Event.cameraLost)
        lost.shot = shot
        lost.code = Self.code(of: error)
        lost.detail = "\(error)"
        journal.recordQuietly(lost)
        observer(.cameraLost(detail: "\(error)"))
        logger.notice("camera \(serialNumber) lost: \(error)")
        let identity = try await waitForCamera(serialNumber: serialNumber, into: session, stop: stop, logger: logger)
        let away = (clock.now - lostAt).seconds
        var back = JournalEntry(JournalEntry.Event.cameraBack)
        back.seconds = away
        back.detail = "serial \(serialNumber)"
        journal.recordQuietly(back)
        observer(.cameraBack(seconds: away))
        return identity
    }

    /// Closes the link in use (the first, or the one the last reconnect opened), once: commands call this instead
    /// of closing their first connection themselves.
    public func closeLinks() async {
        await takeCurrent()?()
    }

    private func takeCurrent() -> (@Sendable () async -> Void)? {
        current.withLock { current in
            defer { current = nil }
            return current
        }
    }

    /// A journal code for `error`: the transport's or capture's code, or the type.
    static func code(of error: any Error) -> String {
        switch error {
        case let error as TransportError: error.code.rawValue
        case let error as CaptureError: error.code.rawValue
        case let error as PTPError: "\(error.code)"
        default: String(describing: type(of: error))
        }
    }

    private struct Retry: Error {}
}
