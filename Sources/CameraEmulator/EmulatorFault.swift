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
/// | `every=100` | after every 100th shot, one fault in turn: the next image download breaks in its middle, GetPartialObject stalls, `busy=3`, the ObjectAdded lost, the ObjectAdded sent twice, the camera reboots in the next image download (the soak test's schedule) |
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
                    + "reboot-after, delay, every, card-full, hostile")
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
