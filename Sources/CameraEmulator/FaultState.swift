import PTP

/// The faults a camera still has to commit, and what it has counted so far to know when.
struct FaultState: Sendable {
    /// DeviceBusy answers left, per operation.
    private var busy: [OperationCode: Int] = [:]
    /// Stalls left, per operation.
    private var stalls: [OperationCode: Int] = [:]
    /// Events left to drop, per code.
    private var lostEvents: [EventCode: Int] = [:]
    /// The `disconnect-after` mark, while it has not fired.
    private(set) var disconnectThreshold: UInt64?
    /// Bytes of data phases handed to the device side so far.
    private(set) var dataPhaseBytes: UInt64 = 0
    /// The `slow` rate.
    let bytesPerSecond: Int?
    /// The `card-full` fault.
    let cardFull: Bool
    /// The faults as given, to describe each one when it fires.
    private let descriptions: [String: String]

    init(_ faults: [EmulatorFault]) {
        var rate: Int?
        var full = false
        var descriptions: [String: String] = [:]
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
            }
        }
        bytesPerSecond = rate
        cardFull = full
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

    /// Counts a data phase of `byteCount` bytes; when it crosses the `disconnect-after` mark, returns how many of
    /// its bytes go out before the link breaks (the fault fires once).
    mutating func takeDisconnect(sending byteCount: UInt64) -> Int? {
        defer { dataPhaseBytes += byteCount }
        guard let threshold = disconnectThreshold, dataPhaseBytes + byteCount > threshold else { return nil }
        disconnectThreshold = nil
        firedDisconnectThreshold = threshold
        return Int(clamping: threshold - min(threshold, dataPhaseBytes))
    }

    /// The mark of a `disconnect-after` fault that has fired.
    private(set) var firedDisconnectThreshold: UInt64?
}
