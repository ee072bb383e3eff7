import PTP

/// A misbehaviour the emulated camera commits on purpose, so tests and users can watch rawcap's error handling.
///
/// Faults are written as short strings (`--fault`), several at once separated by commas or given as separate
/// options:
///
/// | string | what happens |
/// |---|---|
/// | `disconnect-after=1000000` | the link breaks once 1,000,000 bytes of data phases have been sent (counting from the camera's start), in the middle of the data phase that crosses the mark |
/// | `busy=3` or `busy=3:getobject` | the next 3 InitiateCapture (or named) operations are answered DeviceBusy (0x2019) |
/// | `stall=getobject` | the next GetObject stalls bulk IN over USB, or closes the connection over PTP/IP |
/// | `slow=5MB/s` | every data phase from the camera is paced to this rate (B, kB, MB, KiB, MiB per second) |
/// | `lose-event=objectadded` or `lose-event=objectadded:2` | the next (2) ObjectAdded events are never sent |
/// | `card-full` | the card reports no free space and captures to it answer StoreFull (0x200C) |
/// | `duplicate-event=objectadded` or `duplicate-event=objectadded:2` | the next (2) ObjectAdded events are sent twice |
/// | `reboot-after=1000000` | as `disconnect-after`, and the camera restarts: its session closes at once, over USB too (the next host must open a new one); the card and the settings stay, and over PTP/IP `sim serve` takes the next client |
/// | `delay=SetDevicePropValue:3000` | every request of that operation is answered 3000 ms late (a camera busy writing its settings, a slow menu system) |
/// | `disappear-after=5` or `disappear-after=5:10s` | after the 5th shot, the next image download breaks in its middle and the camera is gone (off the USB bus, off the network) for 10 s (default 2 s), then comes back with the same serial number, session closed, card and settings kept: a power cycle |
/// | `sleep-after=30s` or `sleep-after=30s:5s` | after 30 s without a request the camera sleeps: it leaves the link (USB: off the bus; PTP/IP: the connection drops at the host's next request, new ones are refused) and wakes 5 s later (default 2 s), or over PTP/IP soon after a host knocks (a refused connection) |
/// | `every=100` | after every 100th shot, one fault in turn: the next image download breaks in its middle, GetPartialObject stalls, `busy=3`, the ObjectAdded lost, the ObjectAdded sent twice, the camera reboots in the next image download, the camera power-cycles in the next image download (gone 2 s), the camera sleeps at the next InitiateCapture (gone 1.5 s) (the soak test's schedule) |
/// | `hostile=traversal` | with `--model hostile` only: one of the ``HostileBehaviour``s (names in its table) |
///
/// Operation and event names are the standard names from ISO 15740 in any case (`GetObject`, `getpartialobject`,
/// `CaptureComplete`).
public struct EmulatorFault: Hashable, Sendable, CustomStringConvertible {
    /// What goes wrong.
    public enum Kind: Hashable, Sendable {
        /// Break the link once this many bytes of data phases have been sent.
        case disconnectAfter(bytes: UInt64)
        /// Answer the next `count` requests of `operation` with DeviceBusy.
        case busy(count: Int, operation: OperationCode)
        /// Stall (USB) or close (PTP/IP) the link on the next request of `operation`.
        case stall(operation: OperationCode)
        /// Pace every data phase to this many bytes per second.
        case slow(bytesPerSecond: Int)
        /// Drop the next `count` events of this code.
        case loseEvent(EventCode, count: Int)
        /// The card has no free space.
        case cardFull
        /// Send the next `count` events of this code twice.
        case duplicateEvent(EventCode, count: Int)
        /// Break the link once this many bytes of data phases have been sent, and restart the camera.
        case rebootAfter(bytes: UInt64)
        /// Answer every request of `operation` this many milliseconds late.
        case delay(operation: OperationCode, milliseconds: Int)
        /// After every `shots` shots, arm the next fault of ``FaultState/rotation``.
        case every(shots: Int)
        /// After shot number `shots`, break the next image download and leave the link for `duration`.
        case disappearAfter(shots: UInt64, duration: Duration)
        /// Sleep (leave the link) after `idle` without a request, for `wake` unless woken.
        case sleepAfter(idle: Duration, wake: Duration)
        /// The hostile personality's attack (``CameraModel/hostile`` only).
        case hostile(HostileBehaviour)
    }

    /// What goes wrong.
    public let kind: Kind

    /// Wraps a fault.
    public init(_ kind: Kind) { self.kind = kind }

    /// Parses one fault string (see the type's table).
    ///
    /// - Throws: ``EmulatorError/Code-swift.struct/invalidFault`` naming what did not parse.
    public init(parsing text: String) throws(EmulatorError) {
        let trimmed = text.trimmingWhitespace
        let name: Substring
        let argument: Substring?
        if let equals = trimmed.firstIndex(of: "=") {
            name = trimmed[..<equals]
            argument = trimmed[trimmed.index(after: equals)...]
        } else {
            (name, argument) = (trimmed[...], nil)
        }
        func fail(_ why: String) -> EmulatorError { EmulatorError(.invalidFault, "\(text): \(why)") }
        func required() throws(EmulatorError) -> Substring {
            guard let argument, !argument.isEmpty else { throw fail("needs a value after '='") }
            return argument
        }
        /// Splits `value` at its first colon (`3:getobject`, `objectadded:2`).
        func split(_ value: Substring) -> (Substring, Substring?) {
            guard let colon = value.firstIndex(of: ":") else { return (value, nil) }
            return (value[..<colon], value[value.index(after: colon)...])
        }
        func count(_ value: Substring) throws(EmulatorError) -> Int {
            guard let number = Int(value), number > 0 else { throw fail("\(value) is not a positive count") }
            return number
        }
        switch name.lowercased() {
        case "disconnect-after":
            let value = try required()
            guard let bytes = UInt64(value) else { throw fail("\(value) is not a byte count") }
            kind = .disconnectAfter(bytes: bytes)
        case "busy":
            let (number, operation) = split(try required())
            kind = .busy(
                count: try count(number), operation: try operation.map { name throws(EmulatorError) in
                    try Self.operation(named: name, in: text)
                } ?? .initiateCapture)
        case "stall":
            kind = .stall(operation: try Self.operation(named: try required(), in: text))
        case "slow":
            let value = try required()
            guard let rate = Self.bytesPerSecond(value), rate > 0 else {
                throw fail("\(value) is not a rate such as 5MB/s, 500kB/s or 1MiB/s")
            }
            kind = .slow(bytesPerSecond: rate)
        case "lose-event":
            let (event, number) = split(try required())
            guard let code = EventCode.standardNames.first(where: { $0.value.lowercased() == event.lowercased() })
            else { throw fail("\(event) is not a standard event name (ObjectAdded, CaptureComplete, …)") }
            kind = .loseEvent(EventCode(rawValue: code.key), count: try number.map(count) ?? 1)
        case "duplicate-event":
            let (event, number) = split(try required())
            guard let code = EventCode.standardNames.first(where: { $0.value.lowercased() == event.lowercased() })
            else { throw fail("\(event) is not a standard event name (ObjectAdded, CaptureComplete, …)") }
            kind = .duplicateEvent(EventCode(rawValue: code.key), count: try number.map(count) ?? 1)
        case "every":
            kind = .every(shots: try count(try required()))
        case "delay":
            let (operation, value) = split(try required())
            guard let value, let milliseconds = Int(value), (1...600_000).contains(milliseconds) else {
                throw fail("expected OPERATION:MILLISECONDS, such as SetDevicePropValue:3000 (at most 600000)")
            }
            kind = .delay(operation: try Self.operation(named: operation, in: text), milliseconds: milliseconds)
        case "reboot-after":
            let value = try required()
            guard let bytes = UInt64(value) else { throw fail("\(value) is not a byte count") }
            kind = .rebootAfter(bytes: bytes)
        case "disappear-after":
            let (number, duration) = split(try required())
            let away = try duration.map { text throws(EmulatorError) in
                guard let value = Self.duration(text) else { throw fail("\(text) is not a duration such as 2s") }
                return value
            } ?? .seconds(2)
            kind = .disappearAfter(shots: UInt64(try count(number)), duration: away)
        case "sleep-after":
            let (idleText, wakeText) = split(try required())
            guard let idle = Self.duration(idleText), idle > .zero else {
                throw fail("\(idleText) is not a duration such as 30s, 500ms or 2m")
            }
            let wake = try wakeText.map { text throws(EmulatorError) in
                guard let value = Self.duration(text) else { throw fail("\(text) is not a duration such as 5s") }
                return value
            } ?? .seconds(2)
            kind = .sleepAfter(idle: idle, wake: wake)
        case "card-full":
            guard argument == nil else { throw fail("card-full takes no value") }
            kind = .cardFull
        case "hostile":
            let value = try required()
            guard let behaviour = HostileBehaviour(rawValue: value.lowercased()) else {
                throw fail(
                    "\(value) is not a hostile behaviour; known: "
                        + HostileBehaviour.allCases.map(\.rawValue).joined(separator: ", "))
            }
            kind = .hostile(behaviour)
        default:
            throw fail("unknown fault; known: disconnect-after, busy, stall, slow, lose-event, duplicate-event, "
                    + "reboot-after, delay, every, disappear-after, sleep-after, card-full, hostile")
        }
    }

    /// Parses every fault in `texts`, each of which may hold several separated by commas.
    public static func parse(_ texts: [String]) throws(EmulatorError) -> [EmulatorFault] {
        var faults: [EmulatorFault] = []
        for text in texts {
            for part in text.split(separator: ",") where !part.trimmingWhitespace.isEmpty {
                faults.append(try EmulatorFault(parsing: String(part)))
            }
        }
        return faults
    }

    /// The fault's string form, e.g. `busy=3:InitiateCapture`.
    public var description: String {
        switch kind {
        case .disconnectAfter(let bytes): "disconnect-after=\(bytes)"
        case .busy(let count, let operation): "busy=\(count):\(operation)"
        case .stall(let operation): "stall=\(operation)"
        case .slow(let rate): "slow=\(rate)B/s"
        case .loseEvent(let event, let count): "lose-event=\(event):\(count)"
        case .cardFull: "card-full"
        case .duplicateEvent(let event, let count): "duplicate-event=\(event):\(count)"
        case .rebootAfter(let bytes): "reboot-after=\(bytes)"
        case .delay(let operation, let milliseconds): "delay=\(operation):\(milliseconds)"
        case .every(let shots): "every=\(shots)"
        case .hostile(let behaviour): "hostile=\(behaviour)"
        case .disappearAfter(let shots, let duration): "disappear-after=\(shots):\(Self.text(duration))"
        case .sleepAfter(let idle, let wake): "sleep-after=\(Self.text(idle)):\(Self.text(wake))"
        }
    }

    private static func operation(named name: Substring, in text: String) throws(EmulatorError) -> OperationCode {
        // A vendor operation by its code: `busy=20:0x9203` (Nikon GetLiveViewImage).
        if name.lowercased().hasPrefix("0x"), let raw = UInt16(name.dropFirst(2), radix: 16) {
            return OperationCode(rawValue: raw)
        }
        guard let code = OperationCode.standardNames.first(where: { $0.value.lowercased() == name.lowercased() }) else {
            throw EmulatorError(.invalidFault, "\(text): \(name) is not a standard operation name (GetObject, …) or a code (0x9203)")
        }
        return OperationCode(rawValue: code.key)
    }

    /// `500ms`, `2s`, `1.5m`, `1h`, or plain seconds (`2`); at most a day.
    static func duration(_ text: Substring) -> Duration? {
        let lower = text.lowercased()
        let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
        var number = Substring(lower)
        var scale = 1.0
        for (suffix, factor) in units where lower.hasSuffix(suffix) {
            number = number.dropLast(suffix.count)
            scale = factor
            break
        }
        guard let value = Double(number), value.isFinite, value >= 0, value * scale <= 86_400 else { return nil }
        return .milliseconds(Int64((value * scale * 1000).rounded()))
    }

    /// A duration as `duration(_:)` reads it back: whole milliseconds.
    static func text(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return "\(seconds * 1000 + attoseconds / 1_000_000_000_000_000)ms"
    }

    /// `5MB/s`, `500kB/s`, `1.5MiB/s`, `800000` (bytes per second); decimal (k, M, G) and binary (Ki, Mi, Gi)
    /// multiples, with or without `B` and `/s`.
    static func bytesPerSecond(_ text: Substring) -> Int? {
        var unit = text.lowercased()
        if unit.hasSuffix("/s") { unit.removeLast(2) }
        if unit.hasSuffix("b") { unit.removeLast() }
        let multipliers: [(String, Double)] = [
            ("ki", 1024), ("mi", 1024 * 1024), ("gi", 1024 * 1024 * 1024), ("k", 1000), ("m", 1_000_000),
            ("g", 1_000_000_000),
        ]
        var multiplier = 1.0
        for (suffix, factor) in multipliers where unit.hasSuffix(suffix) {
            unit.removeLast(suffix.count)
            multiplier = factor
            break
        }
        guard let number = Double(unit), number.isFinite, number > 0 else { return nil }
        let rate = number * multiplier
        guard rate < Double(Int.max) else { return nil }
        return Int(rate.rounded())
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    var trimmingWhitespace: Substring {
        let characters = Substring(self)
        guard let start = characters.firstIndex(where: { $0 != " " && $0 != "\t" }),
            let end = characters.lastIndex(where: { $0 != " " && $0 != "\t" })
        else { return "" }
        return characters[start...end]
    }
}
