import Logging
import PTP

/// A recorded camera on the USB seam: a ``ReplayResponder`` behind ``PTP/USBDeviceSide`` on an
/// ``PTP/InMemoryBulkPipe``, so a replay runs the real USB container framing — what `--camera replay:FILE` uses.
///
/// ```swift
/// let camera = ReplayCamera(conversation: try PTPConversation.load(path: "session.pcapng"), mode: .lenient)
/// let session = PTPSession(transport: camera.transport())
/// let info = try await session.getDeviceInfo()
/// await camera.stop()
/// ```
public final class ReplayCamera: Sendable {
    /// The host end of the pipe (wrap it in a ``RecordingBulkPipe`` to record the replay).
    public let pipe: InMemoryBulkPipe
    /// The responder.
    public let responder: ReplayResponder
    private let device: USBDeviceSide
    private let running: Task<Void, Never>

    /// Starts serving `conversation` in `mode`.
    public init(
        conversation: PTPConversation, mode: ReplayResponder.Mode, maxPacketSize: Int = 512,
        logger: Logger = Logger(label: "rawcap.replay")
    ) {
        pipe = InMemoryBulkPipe(maxPacketSize: maxPacketSize)
        responder = ReplayResponder(conversation: conversation, mode: mode, logger: logger)
        device = USBDeviceSide(pipe: pipe, responder: responder)
        let device = self.device
        running = Task { await device.run() }
    }

    /// A transport to the replayed camera over `pipe` (``pipe`` itself, or a recording wrapper around it), which
    /// surfaces a strict replay's mismatch as an error.
    public func transport(over pipe: (any USBBulkPipe)? = nil, logger: Logger = Logger(label: "rawcap.ptp.usb"))
        -> ReplayTransport
    {
        ReplayTransport(base: PTPUSBTransport(pipe: pipe ?? self.pipe, logger: logger), responder: responder)
    }

    /// Stops the device side and disconnects the pipe.
    public func stop() async {
        running.cancel()
        await pipe.disconnect()
    }
}
