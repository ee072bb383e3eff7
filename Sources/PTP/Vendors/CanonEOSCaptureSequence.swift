/// A Canon EOS capture to the host as a pure state machine: the release operations of ``CanonEOSCapture``, GetEvent
/// polling until the shot's RequestObjectTransfer, then a download and TransferComplete per object.
///
/// Sequence (libgphoto2 `library.c` `camera_canon_eos_capture`): RemoteReleaseOn/Off (or RemoteRelease); GetEvent
/// until a RequestObjectTransfer (0xC186/0xC1A9) names the shot; GetObject; TransferComplete (0x9117). A RAW+JPEG
/// shot sends two requests, possibly in different replies, so after the first the sequence keeps polling for
/// ``Configuration/settlePolls`` empty replies before it finishes. Run ``CanonEOSCapture/preparation`` once per
/// session before the first capture.
public struct CanonEOSCaptureSequence: Hashable, Sendable {
    /// Tuning.
    public struct Configuration: Hashable, Sendable {
        /// Whether the release focuses first.
        public var autofocus: Bool
        /// Pause between GetEvent polls. libgphoto2 polls continuously with short waits.
        public var pollInterval: Duration
        /// Polls without a transfer request before the sequence fails: 600 × 50 ms = 30 s.
        public var maxPolls: Int
        /// Replies without a new request, after the first, before the shot counts as complete.
        public var settlePolls: Int

        /// Creates a configuration.
        public init(
            autofocus: Bool = false, pollInterval: Duration = .milliseconds(50), maxPolls: Int = 600,
            settlePolls: Int = 2
        ) {
            self.autofocus = autofocus
            self.pollInterval = pollInterval
            self.maxPolls = max(1, maxPolls)
            self.settlePolls = max(0, settlePolls)
        }
    }

    /// What the driver does next.
    public enum Step: Hashable, Sendable {
        /// Run `operation` with `parameters` (no data phase); report ``Outcome/done``.
        case operation(OperationCode, parameters: [UInt32])
        /// Wait `delay`, call GetEvent (0x9116); report ``Outcome/events(_:)``.
        case getEvents(delay: Duration)
        /// Download the object (GetObject), then send TransferComplete with its handle; report ``Outcome/done``.
        case download(CanonEOSTransferRequest)
        /// Every requested object is downloaded.
        case finished
        /// No shot arrived in time, or the driver reported something that does not fit.
        case failed(reason: String)
    }

    /// What the last step did.
    public enum Outcome: Hashable, Sendable {
        /// The operation or the download finished.
        case done
        /// GetEvent returned these records.
        case events(CanonEOSEventList)
    }

    /// The configuration in use.
    public let configuration: Configuration
    private var releases: [CanonEOSCapture.Step]
    private var pending: [CanonEOSTransferRequest] = []
    private var seen: Set<UInt32> = []
    private var downloading = false
    private var polls = 0
    private var quietPolls = 0
    private var finished = false

    /// Creates the sequence for a camera with DeviceInfo `info` (which release operations it lists).
    public init(info: DeviceInfo, configuration: Configuration = Configuration()) {
        self.configuration = configuration
        releases = CanonEOSCapture.release(for: info, autofocus: configuration.autofocus)
    }

    /// The first release operation.
    public var firstStep: Step { releaseStep() ?? .getEvents(delay: .zero) }

    /// The handles downloaded or queued so far, in order.
    public var requestedHandles: [ObjectHandle] { seen.sorted().map(ObjectHandle.init(rawValue:)) }

    /// Advances after the driver reports what the last step did.
    public mutating func next(after outcome: Outcome) -> Step {
        guard !finished else { return .failed(reason: "the sequence had already finished") }
        switch outcome {
        case .done where !releases.isEmpty:
            releases.removeFirst()
            return releaseStep() ?? .getEvents(delay: configuration.pollInterval)
        case .done where downloading:
            downloading = false
            return pending.isEmpty ? .getEvents(delay: .zero) : startDownload()
        case .events(let list) where releases.isEmpty && !downloading:
            let new = list.transferRequests.filter { seen.insert($0.handle.rawValue).inserted }
            pending += new
            if !pending.isEmpty {
                quietPolls = 0
                return startDownload()
            }
            if !seen.isEmpty {
                quietPolls += 1
                if quietPolls > configuration.settlePolls {
                    finished = true
                    return .finished
                }
                return .getEvents(delay: configuration.pollInterval)
            }
            polls += 1
            guard polls < configuration.maxPolls else {
                finished = true
                return .failed(reason: "no RequestObjectTransfer after \(polls) GetEvent polls")
            }
            return .getEvents(delay: configuration.pollInterval)
        default:
            finished = true
            return .failed(reason: "unexpected \(outcome)")
        }
    }

    private func releaseStep() -> Step? {
        guard let first = releases.first else { return nil }
        switch first {
        case .operation(let code, let parameters): return .operation(code, parameters: parameters)
        case .setProperty, .drainEvents: return nil  // release(for:) returns operations only
        }
    }

    private mutating func startDownload() -> Step {
        downloading = true
        return .download(pending.removeFirst())
    }
}
