import Logging
import PTP

/// Driving the lens's focus, per maker. Sources (libgphoto2 `camlibs/ptp2/config.c`):
///
/// - Canon EOS `manualfocusdrive` (`_put_Canon_EOS_MFDrive`): DriveLens 0x9155 with 1…3 towards near, 0x8001…0x8003
///   towards far, then GetEvent; `autofocusdrive` (`_put_Canon_EOS_AFDrive`): DoAf 0x9154, then GetEvent.
/// - Nikon `manualfocusdrive` (`_put_Nikon_MFDrive`): MfDrive 0x9204 (1 towards near, 2 towards far; the steps),
///   then DeviceReady until not busy: MfDriveStepEnd 0xA00C "at limit", MfDriveStepInsufficiency 0xA00E "stepping
///   too small", NotLiveView 0xA00B "works only in LiveView mode"; `autofocusdrive` (`_put_Nikon_AFDrive`): AfDrive
///   0x90C1, then DeviceReady for at most 5 s (OutOfFocus 0xA002 when it did not focus).
/// - Sony `manualfocus` (`_put_Sony_ManualFocus`): ManualFocusAdjust 0xD2D1 through SetControlDeviceB, INT16 −7…7
///   (negative towards near); autofocus is the half press (0xD2C1 down, FocusFound 0xD213 becomes 2, up).
/// - Fujifilm: libgphoto2 has no focus drive, and neither has rawcap.
///
/// Canon and Nikon bodies move the lens only in live view, so a drive starts it first (``LiveViewSource``).
public actor FocusControl {
    public enum Direction: String, Sendable, CaseIterable {
        case near, far
    }

    /// What a drive did.
    public struct DriveResult: Sendable {
        /// Drives sent.
        public var drives: Int
        /// Whether the lens stopped at the end of its range.
        public var reachedLimit: Bool
    }

    public nonisolated let session: PTPSession
    public nonisolated let family: CameraFamily
    private let liveView: LiveViewSource?
    private let logger: Logger
    private var liveViewStarted = false
    /// A Sony's FocusMode (0x500A) before a drive switched it to manual, to put back.
    private var sonyFocusModeBefore: UInt16?

    /// The longest wait for a Nikon drive or autofocus to end (libgphoto2: 1 s after MfDrive, 5 s after AfDrive).
    public static let nikonDriveWait = Duration.seconds(5)

    public init(session: PTPSession, identity: CameraIdentity, logger: Logger) throws {
        self.session = session
        self.family = identity.family
        self.logger = logger
        let operations = identity.deviceInfo.operationsSupported
        switch identity.family {
        case .canonEOS:
            guard operations.contains(OperationCode.Canon.driveLens) else {
                throw LiveViewError(.unavailable, "the Canon camera does not list DriveLens (0x9155)")
            }
            liveView = try LiveViewSource(session: session, identity: identity, logger: logger)
        case .nikon:
            guard operations.contains(OperationCode.Nikon.mfDrive) else {
                throw LiveViewError(.unavailable, "the Nikon camera does not list MfDrive (0x9204)")
            }
            liveView = try LiveViewSource(session: session, identity: identity, logger: logger)
        case .sony:
            liveView = nil
        case .fujifilm:
            throw LiveViewError(.unavailable, "Fujifilm cameras have no focus drive over PTP that rawcap or libgphoto2 knows")
        case .generic:
            throw LiveViewError(.unavailable, "PTP (ISO 15740) has no focus drive, and the camera is not a Canon EOS, Nikon or Sony body")
        }
    }

    /// Drives the lens `count` times by `size` towards `direction`.
    @discardableResult
    public func drive(_ direction: Direction, count: Int, size: FocusStepSize) async throws -> DriveResult {
        try await startLiveViewIfNeeded()
        var result = DriveResult(drives: 0, reachedLimit: false)
        switch family {
        case .canonEOS:
            let parameter = CanonEOSLiveView.driveLensParameter(towardsFar: direction == .far, size: size.canonDriveLensSize)
            for _ in 0..<count {
                try await session.canonDriveLens(parameter)
                _ = try await session.canonGetEvents()
                result.drives += 1
            }
        case .nikon:
            // One MfDrive of all the steps: the body moves in one go.
            let steps = UInt32(clamping: count) * size.nikonSteps
            try await session.nikonMfDrive(
                direction: direction == .near ? NikonLiveView.towardsNear : NikonLiveView.towardsFar, steps: steps)
            result.drives = 1
            result.reachedLimit = try await waitForNikon(what: "the focus drive")
        case .sony:
            try await sonySetFocusMode(manual: true)
            let step = direction == .near ? -size.sonyStep : size.sonyStep
            for _ in 0..<count {
                try await session.sonyManualFocus(step: step)
                result.drives += 1
            }
        case .fujifilm, .generic:
            break
        }
        return result
    }

    /// Runs the camera's autofocus once; `false` when the camera says it did not focus.
    public func autofocus() async throws -> Bool {
        switch family {
        case .canonEOS:
            try await session.canonDoAf()
            _ = try await session.canonGetEvents()
            return true
        case .nikon:
            try await session.nikonAfDrive()
            do {
                _ = try await waitForNikon(what: "autofocus")
            } catch let error as PTPError where error.response == ResponseCode.Nikon.outOfFocus {
                return false
            }
            return true
        case .sony:
            try await startLiveViewIfNeeded()
            try await sonySetFocusMode(manual: false)
            try await session.sonyPress(SonyControl.Press(control: SonyControl.halfPress, value: SonyControl.pressed))
            var focused = false
            let deadline = ContinuousClock.now + SonyControl.focusHold
            while ContinuousClock.now < deadline {
                let properties = try await session.sonyGetAllDevicePropData()
                if case .uint8(let value)? = properties[DevicePropertyCode.Sony.focusFound]?.currentValue,
                    SonyControl.focusFoundValues.contains(value)
                {
                    focused = true
                    break
                }
                try await Task.sleep(for: .milliseconds(50))
            }
            try await session.sonyPress(SonyControl.Press(control: SonyControl.halfPress, value: SonyControl.released))
            return focused
        case .fujifilm, .generic:
            return false
        }
    }

    /// Ends the live view a drive started.
    public func finish() async {
        if liveViewStarted, let liveView { await liveView.stop() }
        liveViewStarted = false
        do {
            try await sonySetFocusMode(manual: false)
        } catch {
            logger.warning("putting the focus mode back: \(error)")
        }
    }

    /// A Sony body takes ManualFocusAdjust in manual focus, and refocuses on every half press otherwise (the
    /// shutter's too): a drive switches FocusMode (0x500A, SetControlDeviceA; libgphoto2 `config.c`
    /// `_put_Sony_FocusMode`) to manual (1) and autofocus or the end puts the body's own mode back.
    private func sonySetFocusMode(manual: Bool) async throws {
        guard family == .sony else { return }
        if manual {
            guard sonyFocusModeBefore == nil else { return }
            let properties = try await session.sonyGetAllDevicePropData()
            guard case .uint16(let mode)? = properties[.focusMode]?.currentValue, mode != SonyControl.manualFocus else {
                return
            }
            try await session.sonySetControlDeviceA(.focusMode, .uint16(SonyControl.manualFocus))
            sonyFocusModeBefore = mode
        } else if let before = sonyFocusModeBefore {
            try await session.sonySetControlDeviceA(.focusMode, .uint16(before))
            sonyFocusModeBefore = nil
        }
    }

    private func startLiveViewIfNeeded() async throws {
        if family == .sony {
            if !liveViewStarted { _ = try await session.sonyConnect() }
            liveViewStarted = true
            return
        }
        guard !liveViewStarted, let liveView else { return }
        try await liveView.start()
        liveViewStarted = true
    }

    /// DeviceReady until the body is not busy; `true` when it answered MfDriveStepEnd (the lens at an end).
    private func waitForNikon(what: String) async throws -> Bool {
        let deadline = ContinuousClock.now + Self.nikonDriveWait
        while true {
            do {
                if try await session.nikonDeviceReady() { return false }
            } catch let error as PTPError where error.response == ResponseCode.Nikon.mfDriveStepEnd {
                return true
            }
            guard ContinuousClock.now < deadline else {
                throw LiveViewError(.noFrames, "the Nikon camera stayed busy after \(what)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}

/// `shoot --focus-bracket N --focus-step S --af once|each|off`: N frames, the focus moved S drives of the smallest
/// size between them (positive towards far, negative towards near).
public struct FocusBracket: Hashable, Sendable {
    /// When autofocus runs: before the first frame, before each (and the frame's offset is driven from there), or
    /// never (the bracket starts where the lens is).
    public enum Autofocus: String, Hashable, Sendable, CaseIterable {
        case once, each, off
    }

    public var step: Int
    public var autofocus: Autofocus

    public init(step: Int, autofocus: Autofocus = .off) {
        self.step = step
        self.autofocus = autofocus
    }
}

/// A focus bracket in progress: moves the lens before each frame.
public actor FocusBracketRun {
    public nonisolated let bracket: FocusBracket
    private let control: FocusControl
    /// Drives of the smallest size from the first frame's position, where the lens is now.
    private var position = 0

    public init(bracket: FocusBracket, control: FocusControl) {
        self.bracket = bracket
        self.control = control
    }

    /// Moves the lens for frame `frame` (0-based); returns the frame's position in drives from the first frame.
    public func before(frame: Int) async throws -> Int {
        let target = frame * bracket.step
        switch bracket.autofocus {
        case .each:
            _ = try await control.autofocus()
            position = 0
        case .once where frame == 0:
            _ = try await control.autofocus()
            position = 0
        default:
            break
        }
        let move = target - position
        if move != 0 {
            try await control.drive(move < 0 ? .near : .far, count: abs(move), size: .small)
        }
        position = target
        return target
    }

    /// Ends the live view the drives started.
    public func finish() async { await control.finish() }
}
