/// Nikon's capture into SDRAM as a pure state machine: the driver performs each ``Step`` with the session and
/// reports the ``Outcome``; no IO and no clock here, so every branch is testable.
///
/// The sequence (libgphoto2 `library.c` `camera_nikon_capture`, operations in `ptp.c`):
///
/// 1. InitiateCaptureRecInSdram (0x90C0) with one parameter: 0xFFFFFFFF (no autofocus) or 0xFFFFFFFE (autofocus
///    first). A DeviceBusy (0x2019) answer means "not yet": send it again after a pause.
/// 2. DeviceReady (0x90C8) until it answers OK instead of DeviceBusy: the body is exposing and writing SDRAM.
/// 3. GetEvent (0x90C7) until ObjectAddedInSdram (0xC101, or standard ObjectAdded 0x4002) names the shot. A RAW+JPEG
///    shot adds two objects. CaptureCompleteRecInSdram (0xC102, or CaptureComplete 0x400D) ends the shot.
/// 4. Download each handle (GetObjectInfo, GetObject); Nikon frees SDRAM objects once read.
///
/// Models that never announce the object (or announce handle 0) have their shot at ``sdramHandle`` 0xFFFF0001:
/// libgphoto2 starts from `newobject = 0xffff0001` and keeps it unless an event names another handle. Setting
/// RecordingMedia (0xD10B) to 1 (SDRAM) beforehand is the settings layer's job (``NikonRecordingMedia``).
public struct NikonCaptureSequence: Hashable, Sendable {
    /// The handle of the shot in SDRAM on bodies that do not announce it (libgphoto2 `camera_nikon_capture`).
    public static let sdramHandle = ObjectHandle(rawValue: 0xFFFF_0001)

    /// Whether the body focuses before the exposure (InitiateCaptureRecInSdram's parameter).
    public struct Autofocus: RawRepresentable, Hashable, Sendable {
        /// The parameter value.
        public let rawValue: UInt32
        /// Wraps any value.
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// 0xFFFFFFFF: release without focusing (libgphoto2's default for tethered capture).
        public static let none = Autofocus(rawValue: 0xFFFF_FFFF)
        /// 0xFFFFFFFE: focus, then release.
        public static let beforeCapture = Autofocus(rawValue: 0xFFFF_FFFE)
    }

    /// Tuning: pauses and how long to wait before giving up.
    public struct Configuration: Hashable, Sendable {
        /// InitiateCaptureRecInSdram's parameter.
        public var autofocus: Autofocus
        /// Pause between polls (DeviceReady, GetEvent, a busy InitiateCapture). libgphoto2 waits 10–100 ms.
        public var pollInterval: Duration
        /// Polls of each kind before the sequence fails: 600 × 50 ms = 30 s covers long exposures short of bulb.
        public var maxPolls: Int
        /// Empty GetEvent polls after the first object before downloading without CaptureComplete (some bodies
        /// never send it; a RAW+JPEG pair arrives within a poll or two).
        public var settlePolls: Int

        /// Creates a configuration.
        public init(
            autofocus: Autofocus = .none, pollInterval: Duration = .milliseconds(50), maxPolls: Int = 600,
            settlePolls: Int = 3
        ) {
            self.autofocus = autofocus
            self.pollInterval = pollInterval
            self.maxPolls = max(1, maxPolls)
            self.settlePolls = max(0, settlePolls)
        }
    }

    /// What the driver does next.
    public enum Step: Hashable, Sendable {
        /// Send InitiateCaptureRecInSdram (0x90C0) with `parameters` after waiting `delay`; report
        /// ``Outcome/accepted`` or ``Outcome/busy``.
        case initiateCapture(parameters: [UInt32], delay: Duration)
        /// Wait `delay`, send DeviceReady (0x90C8); report ``Outcome/accepted`` (OK) or ``Outcome/busy``.
        case checkDeviceReady(delay: Duration)
        /// Wait `delay`, send GetEvent (0x90C7); report ``Outcome/events(_:)``.
        case getEvents(delay: Duration)
        /// Download these handles in order (GetObjectInfo, GetObject), then stop.
        case download([ObjectHandle])
        /// The camera did not get there within ``Configuration/maxPolls``: `reason` says where it stuck.
        case failed(reason: String)
    }

    /// What happened when the driver performed the last step.
    public enum Outcome: Hashable, Sendable {
        /// The operation answered OK.
        case accepted
        /// The operation answered DeviceBusy (0x2019).
        case busy
        /// GetEvent returned these events.
        case events([NikonEventList.Event])
    }

    private enum Phase: Hashable, Sendable {
        case initiating, waitingReady, collecting, done
    }

    /// The configuration in use.
    public let configuration: Configuration
    private var phase: Phase = .initiating
    private var polls = 0
    private var emptyPollsSinceObject = 0
    private var handles: [ObjectHandle] = []
    private var captureComplete = false
    private var named = false

    /// Creates the sequence; start with ``firstStep``.
    public init(configuration: Configuration = Configuration()) { self.configuration = configuration }

    /// The first step: InitiateCaptureRecInSdram with no delay.
    public var firstStep: Step { .initiateCapture(parameters: [configuration.autofocus.rawValue], delay: .zero) }

    /// The handles found so far.
    public var objectHandles: [ObjectHandle] { handles }

    /// Whether an event named an object by its handle. When none did (the body sends no ObjectAddedInSdram, or
    /// sends it with handle 0), the shot waits at ``sdramHandle``, one object after the other: a RAW+JPEG shot's
    /// JPEG moves up once the NEF there is deleted (libgphoto2's burst loop reads them so).
    public var objectsWereNamed: Bool { named }

    /// Advances after the driver reports what the last step did.
    public mutating func next(after outcome: Outcome) -> Step {
        let interval = configuration.pollInterval
        switch (phase, outcome) {
        case (.initiating, .busy):
            return poll(
                .initiateCapture(parameters: [configuration.autofocus.rawValue], delay: interval), "capture start")
        case (.initiating, .accepted):
            phase = .waitingReady
            polls = 0
            return .checkDeviceReady(delay: interval)
        case (.waitingReady, .busy):
            return poll(.checkDeviceReady(delay: interval), "DeviceReady")
        case (.waitingReady, .accepted):
            phase = .collecting
            polls = 0
            return .getEvents(delay: .zero)
        case (.collecting, .events(let events)):
            return collect(events)
        case (.done, _):
            return .failed(reason: "the sequence had already finished")
        default:
            return .failed(reason: "unexpected \(outcome) while \(phase)")
        }
    }

    private mutating func poll(_ step: Step, _ what: String) -> Step {
        polls += 1
        guard polls < configuration.maxPolls else {
            phase = .done
            return .failed(reason: "\(what) still busy after \(polls) polls")
        }
        return step
    }

    private mutating func collect(_ events: [NikonEventList.Event]) -> Step {
        var added = false
        for event in events {
            switch event.code {
            case EventCode.Nikon.objectAddedInSdram, .objectAdded:
                let handle = event.parameter == 0 ? Self.sdramHandle : ObjectHandle(rawValue: event.parameter)
                if event.parameter != 0 { named = true }
                // A handle announced again (a camera that repeats its event, a replay repeating its last answer) is
                // not a new object: only new ones restart the settle count.
                if !handles.contains(handle) {
                    handles.append(handle)
                    added = true
                }
            case EventCode.Nikon.captureCompleteRecInSdram, .captureComplete:
                captureComplete = true
            default:
                break
            }
        }
        if captureComplete {
            phase = .done
            return .download(handles.isEmpty ? [Self.sdramHandle] : handles)
        }
        if !handles.isEmpty {
            emptyPollsSinceObject = added ? 0 : emptyPollsSinceObject + 1
            if emptyPollsSinceObject >= configuration.settlePolls {
                phase = .done
                return .download(handles)
            }
        }
        return poll(.getEvents(delay: configuration.pollInterval), "GetEvent without ObjectAddedInSdram")
    }
}
