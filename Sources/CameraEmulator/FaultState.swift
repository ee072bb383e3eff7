import PTP

/// The faults a camera still has to commit, and what it has counted so far to know when.
struct FaultState: Sendable {
    /// DeviceBusy answers left, per operation.
    private var busy: [OperationCode: Int] = [:]
    /// Stalls left, per operation.
    private var stalls: [OperationCode: Int] = [:]
    /// Events left to drop, per code.
    private var lostEvents: [EventCode: Int] = [:]
    /// Events left to send twice, per code.
    private var duplicatedEvents: [EventCode: Int] = [:]
    /// The `reboot-after` mark, while it has not fired.
    private(set) var rebootThreshold: UInt64?
    /// The `disconnect-after` mark, while it has not fired.
    private(set) var disconnectThreshold: UInt64?
    /// Bytes of data phases handed to the device side so far.
    private(set) var dataPhaseBytes: UInt64 = 0
    /// The `slow` rate.
    let bytesPerSecond: Int?
    /// The `card-full` fault.
    let cardFull: Bool
    /// The hostile personality's attacks (``HostileBehaviour``).
    let hostile: Set<HostileBehaviour>
    /// Whether the hostile camera still has to put its first shot on the card (it does on its first request, so
    /// `rawcap pull` and `rawcap ls` have something to be attacked with from the start).
    var hostileCardPending = true
    /// The faults as given, to describe each one when it fires.
    private let descriptions: [String: String]

    init(_ faults: [EmulatorFault]) {
        var rate: Int?
        var full = false
        var descriptions: [String: String] = [:]
        var hostile: Set<HostileBehaviour> = []
        for fault in faults {
            switch fault.kind {
            case .disconnectAfter(let bytes):
                disconnectThreshold = min(disconnectThreshold ?? .max, bytes)
            case .busy(let count, let operation):
                busy[operation, default: 0] += count
                descriptions["busy \(operation.rawValue)"] = fault.description
            case .stall(let operation):
                stalls[operation, default: 0] += 1
                descriptions["stall \(operation.rawValue)"] = fault.description
            case .slow(let value):
                rate = min(rate ?? .max, value)
            case .loseEvent(let event, let count):
                lostEvents[event, default: 0] += count
            case .cardFull:
                full = true
            case .hostile(let behaviour):
                hostile.insert(behaviour)
            case .duplicateEvent(let event, let count):
                duplicatedEvents[event, default: 0] += count
            case .delay(let operation, let milliseconds):
                delays[operation] = milliseconds
            case .every(let shots):
                every = shots
            case .rebootAfter(let bytes):
                rebootThreshold = min(rebootThreshold ?? .max, bytes)
            case .disappearAfter(let shots, let duration):
                disappearances[shots] = duration
            case .sleepAfter(let idle, let wake):
                sleepAfter = (idle, wake)
            }
        }
        bytesPerSecond = rate
        cardFull = full
        self.hostile = hostile
        self.descriptions = descriptions
    }

    /// Whether `operation` is answered DeviceBusy this time; the fault's description when it is.
    mutating func takeBusy(_ operation: OperationCode) -> String? {
        guard let left = busy[operation], left > 0 else { return nil }
        busy[operation] = left - 1
        return descriptions["busy \(operation.rawValue)"]
    }

    /// Whether `operation` stalls the link this time; the fault's description when it does.
    mutating func takeStall(_ operation: OperationCode) -> String? {
        guard let left = stalls[operation], left > 0 else { return nil }
        stalls[operation] = left - 1
        return descriptions["stall \(operation.rawValue)"]
    }

    /// Whether an event of `code` is dropped this time.
    mutating func takeLostEvent(_ code: EventCode) -> Bool {
        guard let left = lostEvents[code], left > 0 else { return false }
        lostEvents[code] = left - 1
        return true
    }

    /// Counts a shot the camera accepted (its number, from 1); on every `every=`-th, arms the next fault of
    /// ``rotation`` and returns its description.
    mutating func shotAccepted(_ number: UInt64) -> String? {
        if let duration = disappearances.removeValue(forKey: number) {
            armedBreak = .powerCycle(duration)
            return "disappear-after=\(number): armed for the next image download"
        }
        guard let every, number % UInt64(every) == 0 else { return nil }
        let index = scheduledCount % Self.rotation.count
        scheduledCount += 1
        switch index {
        case 0: armedBreak = .disconnect
        case 1: stalls[.getPartialObject, default: 0] += 1
        case 2: busy[.initiateCapture, default: 0] += 3
        case 3: lostEvents[.objectAdded, default: 0] += 1
        case 4: duplicatedEvents[.objectAdded, default: 0] += 1
        case 5: armedBreak = .reboot
        case 6: armedBreak = .powerCycle(Self.scheduledPowerCycle)
        default: armedSleep = Self.scheduledSleep
        }
        return "every=\(every): \(Self.rotation[index]) (#\(scheduledCount))"
    }

    /// How a scheduled break of an image download ends.
    enum ScheduledBreak: Equatable {
        /// The link breaks; the camera stays.
        case disconnect
        /// The link breaks and the camera restarts (its session closes).
        case reboot
        /// The camera restarts and is gone from the link (off the bus, off the network) for this long, then comes
        /// back with the same serial number: a power cycle.
        case powerCycle(Duration)
    }

    /// Whether a data phase of `code` breaks the link (a scheduled disconnect, reboot or power cycle).
    mutating func takeScheduledBreak(_ code: OperationCode) -> ScheduledBreak? {
        guard let armed = armedBreak, code == .getObject || code == .getPartialObject else { return nil }
        armedBreak = nil
        return armed
    }

    /// Whether the camera falls asleep at this request (the `every=` schedule's sleep, armed after a shot and taken
    /// at the next InitiateCapture); how long it sleeps when it does.
    mutating func takeScheduledSleep(_ code: OperationCode) -> Duration? {
        guard let duration = armedSleep, code == .initiateCapture else { return nil }
        armedSleep = nil
        return duration
    }

    /// `disappear-after=` marks not reached yet: shot number → how long the camera stays away.
    private var disappearances: [UInt64: Duration] = [:]
    /// `sleep-after=`: the idle time before the camera sleeps, and how long it sleeps unless woken.
    private(set) var sleepAfter: (idle: Duration, wake: Duration)?
    /// A scheduled sleep waiting for the next InitiateCapture.
    private var armedSleep: Duration?
    /// How long the `every=` schedule's power cycle keeps the camera away.
    static let scheduledPowerCycle = Duration.seconds(2)
    /// How long the `every=` schedule's sleep lasts (a host's knock wakes it sooner over PTP/IP).
    static let scheduledSleep = Duration.milliseconds(1500)

    /// Whether an event of `code` is sent twice this time.
    mutating func takeDuplicatedEvent(_ code: EventCode) -> Bool {
        guard let left = duplicatedEvents[code], left > 0 else { return false }
        duplicatedEvents[code] = left - 1
        return true
    }

    /// Counts a data phase of `byteCount` bytes; when it crosses the `disconnect-after` or `reboot-after` mark,
    /// returns how many of its bytes go out before the link breaks, and whether the camera restarts (each fault
    /// fires once).
    mutating func takeDisconnect(sending byteCount: UInt64) -> (cut: Int, reboot: Bool)? {
        defer { dataPhaseBytes += byteCount }
        let end = dataPhaseBytes + byteCount
        if let threshold = rebootThreshold, end > threshold, threshold <= (disconnectThreshold ?? .max) {
            rebootThreshold = nil
            firedRebootThreshold = threshold
            return (Int(clamping: threshold - min(threshold, dataPhaseBytes)), true)
        }
        guard let threshold = disconnectThreshold, end > threshold else { return nil }
        disconnectThreshold = nil
        firedDisconnectThreshold = threshold
        return (Int(clamping: threshold - min(threshold, dataPhaseBytes)), false)
    }

    /// Milliseconds each operation is answered late (`delay=`).
    private(set) var delays: [OperationCode: Int] = [:]
    /// The `every=` period in shots.
    private(set) var every: Int?
    /// How many scheduled faults have been armed.
    private(set) var scheduledCount = 0
    /// A scheduled break of the next image download.
    private var armedBreak: ScheduledBreak?
    /// What `every=` arms, in turn.
    static let rotation = [
        "disconnect mid-download", "stall GetPartialObject", "busy=3", "lose ObjectAdded", "duplicate ObjectAdded",
        "reboot mid-download", "power cycle mid-download (gone 2 s)", "sleep before the next shot (1.5 s)",
    ]
    /// Restarts so far (``EmulatedCamera/rebootCount``).
    var rebootCount = 0
    /// The mark of a `reboot-after` fault that has fired.
    private(set) var firedRebootThreshold: UInt64?

    /// The mark of a `disconnect-after` fault that has fired.
    private(set) var firedDisconnectThreshold: UInt64?
}
