/// Sony's remote capture as a pure state machine: the driver performs each ``Step`` and reports the ``Outcome``.
///
/// The sequence (libgphoto2 `library.c` `camera_sony_capture`; constants in ``SonyControl``):
///
/// 1. SetControlDeviceB (0x9207) half press, full press, full release, half release (UINT16 2 = down, 1 = up).
/// 2. GetAllDevicePropData (0x9209) until ObjectInMemory (0xD215) exceeds 0x8000: the shot is in the buffer.
/// 3. Download 0xFFFFC001 (GetObjectInfo then GetObject) once per pending object — a RAW+JPEG shot leaves two, and
///    each download lowers the count — re-reading the properties after each.
public struct SonyCaptureSequence: Hashable, Sendable {
    /// Tuning.
    public struct Configuration: Hashable, Sendable {
        /// Pause between property polls. libgphoto2 polls every 10–100 ms.
        public var pollInterval: Duration
        /// Property polls before the sequence fails: 600 × 50 ms = 30 s.
        public var maxPolls: Int
        /// Whether to send the half press (autofocus) before the full press.
        public var autofocus: Bool

        /// Creates a configuration.
        public init(pollInterval: Duration = .milliseconds(50), maxPolls: Int = 600, autofocus: Bool = true) {
            self.pollInterval = pollInterval
            self.maxPolls = max(1, maxPolls)
            self.autofocus = autofocus
        }
    }

    /// What the driver does next.
    public enum Step: Hashable, Sendable {
        /// SetControlDeviceB (0x9207) with `control` and the UINT16 `value`; report ``Outcome/done``.
        case press(control: DevicePropertyCode, value: UInt16)
        /// Wait `delay`, read GetAllDevicePropData (0x9209); report ``Outcome/pendingObjects(_:)`` with
        /// ``SonyControl/pendingObjectCount(_:)`` of ObjectInMemory.
        case pollPendingObjects(delay: Duration)
        /// Download ``SonyControl/capturedObjectHandle`` (GetObjectInfo, GetObject); report ``Outcome/done``.
        case download(ObjectHandle)
        /// Every shot is downloaded.
        case finished
        /// The shot did not arrive in time.
        case failed(reason: String)
    }

    /// What the last step did.
    public enum Outcome: Hashable, Sendable {
        /// The operation answered OK.
        case done
        /// ObjectInMemory says this many shots wait.
        case pendingObjects(Int)
    }

    /// The configuration in use.
    public let configuration: Configuration
    private var presses: [SonyControl.Press]
    private var polls = 0
    private var downloads = 0
    private var downloading = false
    private var finished = false

    /// Creates the sequence; start with ``firstStep``.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        presses =
            configuration.autofocus
            ? SonyControl.shutterSequence : SonyControl.shutterSequence.filter { $0.control == SonyControl.fullPress }
    }

    /// The first press.
    public var firstStep: Step {
        presses.first.map { .press(control: $0.control, value: $0.value) } ?? .pollPendingObjects(delay: .zero)
    }

    /// How many objects have been downloaded.
    public var downloadCount: Int { downloads }

    /// Advances after the driver reports what the last step did.
    public mutating func next(after outcome: Outcome) -> Step {
        guard !finished else { return .failed(reason: "the sequence had already finished") }
        switch outcome {
        case .done where !presses.isEmpty:
            presses.removeFirst()
            if let press = presses.first { return .press(control: press.control, value: press.value) }
            return .pollPendingObjects(delay: configuration.pollInterval)
        case .done where downloading:
            downloading = false
            downloads += 1
            polls = 0
            return .pollPendingObjects(delay: .zero)
        case .pendingObjects(let count) where count > 0:
            downloading = true
            return .download(SonyControl.capturedObjectHandle)
        case .pendingObjects:
            if downloads > 0 {
                finished = true
                return .finished
            }
            polls += 1
            guard polls < configuration.maxPolls else {
                finished = true
                return .failed(reason: "no shot in the buffer after \(polls) polls of ObjectInMemory")
            }
            return .pollPendingObjects(delay: configuration.pollInterval)
        case .done:
            finished = true
            return .failed(reason: "an operation finished where none was expected")
        }
    }
}
