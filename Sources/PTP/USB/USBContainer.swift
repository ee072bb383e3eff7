import WireFormat

/// The kind of a USB bulk container (USB Still Image Capture Device Definition §7; libgphoto2
/// `PTP_USB_CONTAINER_*`).
public struct USBContainerType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The 16-bit ContainerType field.
    public let rawValue: UInt16

    /// Wraps any value.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// 1: an operation request, host to device.
    public static let command = USBContainerType(rawValue: 1)
    /// 2: a data phase, either direction.
    public static let data = USBContainerType(rawValue: 2)
    /// 3: a response, device to host.
    public static let response = USBContainerType(rawValue: 3)
    /// 4: an event, on the interrupt endpoint.
    public static let event = USBContainerType(rawValue: 4)

    /// `Command`, `Data`, `Response`, `Event`, or `Unknown(n)`.
    public var description: String {
        switch rawValue {
        case 1: "Command"
        case 2: "Data"
        case 3: "Response"
        case 4: "Event"
        default: "Unknown(\(rawValue))"
        }
    }
}

/// The 12-byte header every USB bulk container starts with.
///
/// | offset | size | field |
/// |---|---|---|
/// | 0 | 4 | ContainerLength: the whole container, header included; 0xFFFFFFFF for a data phase of 4 GiB or more |
/// | 4 | 2 | ContainerType (``USBContainerType``) |
/// | 6 | 2 | Code: operation, response or event code |
/// | 8 | 4 | TransactionID |
public struct USBContainerHeader: Hashable, Sendable {
    /// The header's size in bytes.
    public static let byteCount = 12
    /// The ContainerLength of a data container whose length does not fit 32 bits: read it until a short packet.
    public static let unknownLength: UInt32 = 0xFFFF_FFFF

    /// ContainerLength.
    public var length: UInt32
    /// ContainerType.
    public var type: USBContainerType
    /// Code.
    public var code: UInt16
    /// TransactionID.
    public var transactionID: UInt32

    /// Creates a header.
    public init(length: UInt32, type: USBContainerType, code: UInt16, transactionID: UInt32) {
        (self.length, self.type, self.code, self.transactionID) = (length, type, code, transactionID)
    }

    /// Reads a header (no validation beyond the byte count; ``USBContainerFramer`` validates).
    public init(from reader: inout WireReader) throws(WireError) {
        length = try reader.read()
        type = USBContainerType(rawValue: try reader.read())
        code = try reader.read()
        transactionID = try reader.read()
    }

    /// Writes the header.
    public func encode(into writer: inout WireWriter) {
        writer.write(length)
        writer.write(type.rawValue)
        writer.write(code)
        writer.write(transactionID)
    }

    /// The header's 12 bytes.
    public var usbEncoded: [UInt8] {
        var writer = WireWriter(byteOrder: .little, capacity: Self.byteCount)
        encode(into: &writer)
        return writer.bytes
    }

    /// The header of a data container carrying `payloadByteCount` bytes: the exact length when it fits 32 bits,
    /// ``unknownLength`` otherwise.
    public static func data(code: UInt16, transactionID: UInt32, payloadByteCount: UInt64) -> USBContainerHeader {
        let total = payloadByteCount + UInt64(byteCount)
        let length = total < UInt64(unknownLength) ? UInt32(total) : unknownLength
        return USBContainerHeader(length: length, type: .data, code: code, transactionID: transactionID)
    }
}

/// One USB bulk container (or interrupt event), with typed codes.
///
/// Commands and responses carry 0…5 parameters, events 0…3 (USB Still Image Capture Device Definition §7,
/// libgphoto2 `PTP_USB_BULK_REQ_LEN`); a data container carries bytes. Large data phases never become one value:
/// ``USBContainerFramer`` streams them. A real request: `10 00 00 00 01 00 02 10 00 00 00 00 01 00 00 00` is
/// OpenSession(1) in transaction 0.
public enum USBContainer: Hashable, Sendable, CustomStringConvertible {
    /// An operation request.
    case command(OperationCode, transactionID: UInt32, parameters: [UInt32])
    /// A whole data phase held in memory.
    case data(OperationCode, transactionID: UInt32, payload: [UInt8])
    /// A response.
    case response(ResponseCode, transactionID: UInt32, parameters: [UInt32])
    /// An event.
    case event(EventCode, transactionID: UInt32, parameters: [UInt32])

    /// Most parameters a command or response carries.
    public static let maxParameters = 5
    /// Most parameters an event carries.
    public static let maxEventParameters = 3
    /// The longest non-data container: a header and five parameters (32 bytes).
    public static let maxNonDataLength = USBContainerHeader.byteCount + 4 * maxParameters

    /// The container's type.
    public var type: USBContainerType {
        switch self {
        case .command: .command
        case .data: .data
        case .response: .response
        case .event: .event
        }
    }

    /// The transaction ID.
    public var transactionID: UInt32 {
        switch self {
        case .command(_, let id, _), .data(_, let id, _), .response(_, let id, _), .event(_, let id, _): id
        }
    }

    /// The container's bytes. Parameter counts above the limits are a programmer error.
    public var usbEncoded: [UInt8] {
        let code: UInt16
        var body = WireWriter(byteOrder: .little)
        switch self {
        case .command(let op, _, let parameters):
            precondition(parameters.count <= Self.maxParameters, "a command carries at most 5 parameters")
            code = op.rawValue
            for parameter in parameters { body.write(parameter) }
        case .data(let op, _, let payload):
            code = op.rawValue
            body.write(bytes: payload)
        case .response(let response, _, let parameters):
            precondition(parameters.count <= Self.maxParameters, "a response carries at most 5 parameters")
            code = response.rawValue
            for parameter in parameters { body.write(parameter) }
        case .event(let event, _, let parameters):
            precondition(parameters.count <= Self.maxEventParameters, "an event carries at most 3 parameters")
            code = event.rawValue
            for parameter in parameters { body.write(parameter) }
        }
        var writer = WireWriter(byteOrder: .little, capacity: USBContainerHeader.byteCount + body.count)
        let header =
            type == .data
            ? USBContainerHeader.data(code: code, transactionID: transactionID, payloadByteCount: UInt64(body.count))
            : USBContainerHeader(
                length: UInt32(USBContainerHeader.byteCount + body.count), type: type, code: code,
                transactionID: transactionID)
        header.encode(into: &writer)
        writer.write(bytes: body.bytes)
        return writer.bytes
    }

    /// Decodes exactly one whole container, validating it as ``USBContainerFramer`` does.
    ///
    /// - Throws: ``WireFormat/WireError/Code/truncated`` when the bytes end before ContainerLength says,
    ///   ``WireFormat/WireError/Code/trailingBytes`` when they go on after it, and
    ///   ``WireFormat/WireError/Code/invalidValue`` for a bad length, type or parameter count.
    public init(usbEncoded bytes: [UInt8]) throws(WireError) {
        var framer = USBContainerFramer()
        framer.append(bytes, endsTransfer: true)
        var payload: [UInt8] = []
        var start: (OperationCode, UInt32)?
        while true {
            guard let item = try framer.next() else {
                throw WireError(.truncated, at: bytes.count, "container ends early")
            }
            switch item {
            case .container(let container):
                guard framer.bufferedByteCount == 0 else {
                    throw WireError(.trailingBytes, at: bytes.count - framer.bufferedByteCount, "after container")
                }
                self = container
                return
            case .dataStart(let code, let transactionID, _):
                start = (code, transactionID)
            case .dataBytes(let chunk):
                payload.append(contentsOf: chunk)
            case .dataEnd:
                guard let (code, transactionID) = start else { continue }
                guard framer.bufferedByteCount == 0 else {
                    throw WireError(.trailingBytes, at: bytes.count - framer.bufferedByteCount, "after container")
                }
                self = .data(code, transactionID: transactionID, payload: payload)
                return
            }
        }
    }

    /// `Response(OK, tid 3, [])`-style text for logs.
    public var description: String {
        switch self {
        case .command(let code, let id, let parameters): "Command(\(code), tid \(id), \(parameters.map(hex)))"
        case .data(let code, let id, let payload): "Data(\(code), tid \(id), \(payload.count) bytes)"
        case .response(let code, let id, let parameters): "Response(\(code), tid \(id), \(parameters.map(hex)))"
        case .event(let code, let id, let parameters): "Event(\(code), tid \(id), \(parameters.map(hex)))"
        }
    }
}
