import Logging
import PTP

/// One live view frame as the host received it.
public struct LiveViewFrame: Sendable {
    /// The JPEG, unwrapped from the vendor's container.
    public var jpeg: [UInt8]
    /// The camera's own frame number, when its wrapper carries one (none of the four makers' wrappers do).
    public var cameraFrameNumber: UInt32?
    /// When the request that returned it was sent and when its last byte arrived.
    public var requested: ContinuousClock.Instant
    public var received: ContinuousClock.Instant
    /// "Not yet" answers (the camera had no new frame) before this one.
    public var notReadyAnswers: Int
}

/// Why live view stopped or could not start.
public struct LiveViewError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Hashable, Sendable {
        /// The camera has no live view rawcap can read, or refuses to start it now (the reason says which).
        case unavailable
        /// The camera kept answering "not yet" for longer than it may.
        case noFrames
        /// A frame held no JPEG.
        case badFrame
    }

    public var kind: Kind
    public var description: String

    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}

/// Live view over a PTP session, per maker (``PTP/LiveViewProtocol``): starting it the way libgphoto2's
/// `camera_capture_preview` does, reading frames with each maker's "not yet" answers retried, starting it again
/// when the camera drops out of it (Nikon NotLiveView, a Canon or Sony that answers "not yet" for too long), and
/// ending it (Nikon EndLiveView, Canon EVFOutputDevice put back, Fujifilm TerminateOpenCapture). A Fujifilm body on
/// Wi-Fi pushes its frames on a connection of its own (port 55742, ``PTP/FujifilmPTPIP``), which the transport
/// opens after InitiateOpenCapture: frames are read from there, as libgphoto2 `camera_capture_preview` does when
/// it has that connection (`ptp_fujiptpip_jpeg`).
public actor LiveViewSource {
    public nonisolated let session: PTPSession
    public nonisolated let liveViewProtocol: LiveViewProtocol
    private let logger: Logger
    private var deviceInfo: DeviceInfo
    private var started = false
    private var skipNextFrame = false
    /// Canon EVFOutputDevice before live view, to put back.
    private var canonOutputBefore: UInt32?
    /// Nikon RecordingMedia before live view, to put back.
    private var nikonRecordingMediaBefore: PTPValue?
    /// Whether frames come from the camera's live-view connection (Fujifilm on Wi-Fi) rather than an operation.
    public private(set) var usesLiveViewConnection = false
    /// How frames are read, for reports: the protocol's name, or the Fujifilm live-view connection.
    public var methodDescription: String {
        usesLiveViewConnection ? "Fujifilm live-view connection, port 55742" : liveViewProtocol.description
    }
    /// Times live view was started again after the camera dropped out of it.
    public private(set) var restarts = 0
    /// Longest a frame may keep the host waiting before live view is started again, and then given up on.
    public static let frameWait = Duration.seconds(3)
    /// Most restarts in a row without a frame between them.
    public static let maxRestartsInARow = 3

    /// Chooses the protocol for the connected camera, or throws ``LiveViewError/Kind/unavailable`` with the reason.
    public init(session: PTPSession, identity: CameraIdentity, logger: Logger) throws {
        let info = identity.deviceInfo
        switch LiveViewProtocol.select(family: identity.family, operations: info.operationsSupported) {
        case .success(let chosen): liveViewProtocol = chosen
        case .failure(let reason): throw LiveViewError(.unavailable, reason.description)
        }
        self.session = session
        self.logger = logger
        self.deviceInfo = info
    }

    /// Starts live view on the camera.
    public func start() async throws {
        switch liveViewProtocol {
        case .canonEOS: try await startCanon()
        case .nikon: try await startNikon()
        case .sony: try await startSony()
        case .fujifilm: try await startFujifilm()
        }
        started = true
    }

    /// Ends live view on the camera and puts back what starting it changed; errors are logged, not thrown (the
    /// session may be gone).
    public func stop() async {
        guard started else { return }
        started = false
        do {
            switch liveViewProtocol {
            case .canonEOS:
                if let before = canonOutputBefore {
                    try await session.canonSetPropertyValue(
                        CanonEOSPropertyValue(property: CanonEOSLiveView.outputDeviceProperty, uint32: before))
                }
                if deviceInfo.supports(OperationCode.Canon.setEventMode) { try await session.canonSetEventMode(0) }
                if deviceInfo.supports(OperationCode.Canon.setRemoteMode) { try await session.canonSetRemoteMode(0) }
            case .nikon:
                try await session.nikonEndLiveView()
                if let before = nikonRecordingMediaBefore {
                    try await session.setDevicePropValue(DevicePropertyCode.Nikon.recordingMedia, before)
                }
            case .sony:
                break
            case .fujifilm:
                try await session.execute(.terminateOpenCapture, parameters: [0])
            }
        } catch {
            logger.warning("ending live view: \(error)")
        }
    }

    /// The next new frame, waiting through the camera's "not yet" answers; restarts live view when the camera drops
    /// out of it.
    public func nextFrame() async throws -> LiveViewFrame {
        if !started { try await start() }
        var restartsInARow = 0
        while true {
            do {
                var frame = try await fetch()
                if skipNextFrame {
                    skipNextFrame = false
                    frame = try await fetch()
                }
                return frame
            } catch let error as LiveViewError where error.kind == .noFrames {
                restartsInARow += 1
                guard restartsInARow <= Self.maxRestartsInARow else { throw error }
                logger.notice("live view: \(error.description); starting it again")
                try await restart()
            } catch let error as PTPError
                where liveViewProtocol == .nikon && error.response == ResponseCode.Nikon.notLiveView
            {
                // libgphoto2: "this happens on the D7000 after 14000 frames... reenable liveview".
                restartsInARow += 1
                guard restartsInARow <= Self.maxRestartsInARow else { throw error }
                logger.notice("live view: the camera left live view (NotLiveView); starting it again")
                try await restart()
            }
        }
    }

    private func restart() async throws {
        restarts += 1
        switch liveViewProtocol {
        case .nikon: try await startNikon()
        case .canonEOS: try await enableCanonOutput()
        case .fujifilm: try await startFujifilm()
        case .sony: break
        }
    }

    // MARK: Frames

    private func fetch() async throws -> LiveViewFrame {
        let begin = ContinuousClock.now
        let deadline = begin + Self.frameWait
        var notReady = 0
        while true {
            let requested = ContinuousClock.now
            do {
                let jpeg = try await fetchOnce()
                return LiveViewFrame(
                    jpeg: jpeg, cameraFrameNumber: nil, requested: requested, received: .now,
                    notReadyAnswers: notReady)
            } catch let error as PTPError where isNotYet(error) {
                notReady += 1
                guard ContinuousClock.now < deadline else {
                    throw LiveViewError(.noFrames, "no new frame for \(Self.frameWait) (\(error))")
                }
                try await Task.sleep(for: pause(after: error, tries: notReady))
            }
        }
    }

    private func fetchOnce() async throws -> [UInt8] {
        switch liveViewProtocol {
        case .canonEOS:
            let data = try await session.canonGetViewFinderData()
            guard let jpeg = data.jpeg, LiveViewJPEG.isWholeJPEG(jpeg) else {
                throw LiveViewError(.badFrame, "GetViewFinderData held no JPEG record (types \(data.records.map(\.type)))")
            }
            return Array(jpeg)
        case .nikon:
            let bytes = try await session.nikonGetLiveViewImage()
            do {
                let image = try NikonLiveViewImage(
                    ptpEncoded: bytes, headerSize: NikonLiveViewImage.headerSize(model: deviceInfo.model))
                return Array(image.jpeg)
            } catch {
                throw LiveViewError(.badFrame, "GetLiveViewImage: \(error)")
            }
        case .sony:
            let bytes = try await session.liveViewObject(SonyLiveView.objectHandle)
            do {
                return Array(try SonyLiveViewImage(ptpEncoded: bytes).jpeg)
            } catch {
                throw LiveViewError(.badFrame, "live view object: \(error)")
            }
        case .fujifilm where usesLiveViewConnection:
            let blob: [UInt8]
            do {
                blob = try await session.nextLiveViewBlob(timeout: Self.frameWait)
            } catch let error as TransportError where error.code == .timeout {
                throw LiveViewError(.noFrames, "no frame on the live-view connection for \(Self.frameWait)")
            }
            guard let range = LiveViewJPEG.locate(in: blob[...]) else {
                throw LiveViewError(.badFrame, "a blob of \(blob.count) bytes on the live-view connection holds no JPEG")
            }
            return Array(blob[range])
        case .fujifilm:
            _ = try await session.getObjectInfo(FujifilmLiveView.objectHandle)
            let bytes = try await session.liveViewObject(FujifilmLiveView.objectHandle)
            try? await session.deleteObject(FujifilmLiveView.objectHandle)
            guard let range = LiveViewJPEG.locate(in: bytes[...]) else {
                throw LiveViewError(.badFrame, "the live view object holds no JPEG")
            }
            return Array(bytes[range])
        }
    }

    /// Whether `error` is the family's "no new frame yet" (libgphoto2 `camera_capture_preview`): Canon 0xA102 or
    /// DeviceBusy, Nikon DeviceBusy, Sony AccessDenied or InvalidObjectHandle, Fujifilm InvalidObjectHandle or
    /// DeviceBusy.
    private func isNotYet(_ error: PTPError) -> Bool {
        guard let response = error.response else { return false }
        switch liveViewProtocol {
        case .canonEOS: return response == ResponseCode.Canon.objectNotReady || response == .deviceBusy
        case .nikon: return response == .deviceBusy
        case .sony: return response == .accessDenied || response == .invalidObjectHandle
        case .fujifilm: return response == .invalidObjectHandle || response == .deviceBusy || response == .accessDenied
        }
    }

    /// The pause before asking again: libgphoto2's are 5 ms × tries (Canon), 10 ms (Nikon), 20 ms after
    /// AccessDenied and 50 ms after InvalidObjectHandle (Sony), 5 ms (Fujifilm). rawcap polls a frame's worth more
    /// often (at most 10 ms) so that a 30-frame-a-second body loses no frame to the wait.
    private func pause(after error: PTPError, tries: Int) -> Duration {
        switch liveViewProtocol {
        case .canonEOS: .milliseconds(min(10, 2 * tries))
        case .nikon: .milliseconds(5)
        case .sony: error.response == .invalidObjectHandle ? .milliseconds(50) : .milliseconds(5)
        case .fujifilm: .milliseconds(5)
        }
    }

    // MARK: Starting

    private func startCanon() async throws {
        if deviceInfo.supports(OperationCode.Canon.setRemoteMode), let mode = CanonEOSCapture.remoteMode(for: deviceInfo) {
            try await session.canonSetRemoteMode(mode)
        }
        if deviceInfo.supports(OperationCode.Canon.setEventMode) { try await session.canonSetEventMode() }
        try await enableCanonOutput()
    }

    /// EVFMode on and the PC bit in EVFOutputDevice, from the values the body's GetEvent records report.
    private func enableCanonOutput() async throws {
        var output: UInt32?
        var mode: UInt32?
        for _ in 0..<64 {
            let list = try await session.canonGetEvents()
            if list.events.isEmpty { break }
            for case .propertyChanged(let change) in list.events {
                if change.property == CanonEOSLiveView.outputDeviceProperty { output = change.uint32Value }
                if change.property == CanonEOSLiveView.modeProperty { mode = change.uint32Value }
            }
        }
        if let mode, mode != 1 {
            do {
                try await session.canonSetPropertyValue(
                    CanonEOSPropertyValue(property: CanonEOSLiveView.modeProperty, uint32: 1))
            } catch let error as PTPError where error.response == .deviceBusy {
                // libgphoto2: "in movie mode we get busy, but can proceed".
            }
        }
        if canonOutputBefore == nil { canonOutputBefore = output }
        if let value = CanonEOSLiveView.outputDeviceValue(current: output ?? 0) {
            try await session.canonSetPropertyValue(
                CanonEOSPropertyValue(property: CanonEOSLiveView.outputDeviceProperty, uint32: value))
        }
    }

    private func startNikon() async throws {
        if deviceInfo.devicePropertiesSupported.contains(NikonLiveView.prohibitConditionProperty)
            || deviceInfo.devicePropertiesSupported.contains(NikonLiveView.statusProperty)
        {
            if let condition = try? await session.getDevicePropValue(NikonLiveView.prohibitConditionProperty, type: .uint32),
                case .uint32(let mask) = condition, let reason = NikonLiveView.prohibitReason(mask),
                mask & (1 << 24) == 0
            {
                throw LiveViewError(.unavailable, "the Nikon camera cannot start live view: \(reason)")
            }
        }
        if deviceInfo.devicePropertiesSupported.contains(DevicePropertyCode.Nikon.recordingMedia),
            nikonRecordingMediaBefore == nil,
            let before = try? await session.getDevicePropValue(DevicePropertyCode.Nikon.recordingMedia, type: .uint8),
            before != .uint8(1)
        {
            // libgphoto2 sets RecordingMedia to SDRAM before StartLiveView; rawcap puts it back at the end.
            try await session.setDevicePropValue(DevicePropertyCode.Nikon.recordingMedia, .uint8(1))
            nikonRecordingMediaBefore = before
        }
        _ = try await session.nikonStartLiveView()
        let deadline = ContinuousClock.now + NikonLiveView.readyWait
        while try await !session.nikonDeviceReady() {
            guard ContinuousClock.now < deadline else {
                throw LiveViewError(.unavailable, "the Nikon camera stayed busy after StartLiveView")
            }
            try await Task.sleep(for: NikonLiveView.readyPoll)
        }
        // libgphoto2 skips the first frame after starting ("the first image on the S9700 is corrupted").
        skipNextFrame = true
    }

    private func startSony() async throws {
        // The handshake is what makes a Sony in PC Remote mode answer (libgphoto2 runs it in `camera_init`).
        _ = try await session.sonyConnect()
    }

    private func startFujifilm() async throws {
        var lastError: (any Error)?
        for _ in 0..<5 {
            do {
                try await session.execute(.initiateOpenCapture, parameters: [0, 0])
                usesLiveViewConnection = await session.liveViewStreamIsOpen
                if await session.transportStreamsLiveView, !usesLiveViewConnection {
                    logger.notice("live view: the camera's live-view connection is not open; asking for object 0x80000001")
                }
                return
            } catch {
                lastError = error
            }
        }
        throw lastError ?? LiveViewError(.unavailable, "InitiateOpenCapture failed")
    }
}
