import WireFormat

/// A property value of any PTP data type (ISO 15740 §5.3): the integers INT8…UINT64, the 128-bit types
/// as raw bytes, arrays of integers, and strings.
///
/// DevicePropDesc, GetDevicePropValue and SetDevicePropValue carry values whose type is given out of band (the
/// DataType field of the description), so decoding takes the ``DataTypeCode``:
///
/// ```swift
/// let iso = try PTPValue(ptpEncoded: [0x90, 0x01], type: .uint16)   // .uint16(400)
/// ```
public enum PTPValue: Hashable, Sendable, CustomStringConvertible {
    /// INT8.
    case int8(Int8)
    /// UINT8.
    case uint8(UInt8)
    /// INT16.
    case int16(Int16)
    /// UINT16.
    case uint16(UInt16)
    /// INT32.
    case int32(Int32)
    /// UINT32.
    case uint32(UInt32)
    /// INT64.
    case int64(Int64)
    /// UINT64.
    case uint64(UInt64)
    /// INT128, as 16 raw little-endian bytes.
    case int128(PTPRaw128)
    /// UINT128, as 16 raw little-endian bytes.
    case uint128(PTPRaw128)
    /// An array (`0x4000 | t`): the element type and the elements, each of that type.
    case array(DataTypeCode, [PTPValue])
    /// STR: a PTP string.
    case string(String)

    /// The value's data type.
    public var dataType: DataTypeCode {
        switch self {
        case .int8: .int8
        case .uint8: .uint8
        case .int16: .int16
        case .uint16: .uint16
        case .int32: .int32
        case .uint32: .uint32
        case .int64: .int64
        case .uint64: .uint64
        case .int128: .int128
        case .uint128: .uint128
        case .array(let element, _): .array(of: element)
        case .string: .string
        }
    }

    /// Reads one value of `type`.
    ///
    /// - Throws: ``WireFormat/WireError/Code/invalidValue`` for a type that is not INT8…UINT128, an array of
    ///   those, or STR; ``WireFormat/WireError/Code/limitExceeded`` for an array count above
    ///   ``WireFormat/WireLimits/maxPTPArrayCount``; ``WireFormat/WireError/Code/truncated`` when bytes run out.
    public static func read(
        _ type: DataTypeCode, from reader: inout WireReader, quirks: PTPQuirks = []
    ) throws(WireError) -> PTPValue {
        if type == .string { return .string(try PTPString.read(from: &reader, quirks: quirks)) }
        if type.isScalar { return try readScalar(type, from: &reader) }
        guard type.isArray, let elementSize = type.elementType.scalarByteCount else {
            throw WireError(.invalidValue, at: reader.offset, "data type \(type) (\(hex(type.rawValue)))")
        }
        let countOffset = reader.offset
        let count = Int(try reader.read(UInt32.self))
        guard count <= WireLimits.maxPTPArrayCount else {
            throw WireError(.limitExceeded, at: countOffset, "array of \(count) × \(type.elementType)")
        }
        // count ≤ 2^20 and elementSize ≤ 16, so the product cannot overflow.
        guard count * elementSize <= reader.remainingCount else {
            throw WireError(.truncated, at: countOffset, "array of \(count) × \(type.elementType)")
        }
        var elements: [PTPValue] = []
        elements.reserveCapacity(count)
        for _ in 0..<count { elements.append(try readScalar(type.elementType, from: &reader)) }
        return .array(type.elementType, elements)
    }

    private static func readScalar(_ type: DataTypeCode, from reader: inout WireReader) throws(WireError) -> PTPValue {
        switch type {
        case .int8: .int8(try reader.read())
        case .uint8: .uint8(try reader.read())
        case .int16: .int16(try reader.read())
        case .uint16: .uint16(try reader.read())
        case .int32: .int32(try reader.read())
        case .uint32: .uint32(try reader.read())
        case .int64: .int64(try reader.read())
        case .uint64: .uint64(try reader.read())
        case .int128: .int128(PTPRaw128(low: try reader.read(), high: try reader.read()))
        case .uint128: .uint128(PTPRaw128(low: try reader.read(), high: try reader.read()))
        default: throw WireError(.invalidValue, at: reader.offset, "data type \(hex(type.rawValue)) is not a scalar")
        }
    }

    /// Decodes a whole value of `type`, rejecting trailing bytes.
    public init(ptpEncoded bytes: [UInt8], type: DataTypeCode, quirks: PTPQuirks = []) throws(WireError) {
        var reader = WireReader(bytes, byteOrder: .little)
        self = try Self.read(type, from: &reader, quirks: quirks)
        try reader.expectEnd("\(type) value")
    }

    /// Appends the value's encoding.
    ///
    /// An ``array(_:_:)`` must hold elements of its element type only; anything else is a programmer error.
    public func encode(into writer: inout WireWriter) {
        switch self {
        case .int8(let value): writer.write(value)
        case .uint8(let value): writer.write(value)
        case .int16(let value): writer.write(value)
        case .uint16(let value): writer.write(value)
        case .int32(let value): writer.write(value)
        case .uint32(let value): writer.write(value)
        case .int64(let value): writer.write(value)
        case .uint64(let value): writer.write(value)
        case .int128(let value), .uint128(let value):
            writer.write(value.low)
            writer.write(value.high)
        case .array(let element, let values):
            precondition(element.isScalar, "PTPValue.array element type \(element) is not an integer type")
            writer.write(UInt32(truncatingIfNeeded: values.count))
            for value in values {
                precondition(value.dataType == element, "PTPValue.array(\(element)) holds a \(value.dataType)")
                value.encode(into: &writer)
            }
        case .string(let value): PTPString.write(value, into: &writer)
        }
    }

    /// The value's encoding.
    public var ptpEncoded: [UInt8] {
        var writer = WireWriter(byteOrder: .little)
        encode(into: &writer)
        return writer.bytes
    }

    /// Creates an integer value of `type` from `integer`; throws ``WireFormat/WireError/Code/doesNotFit`` when the
    /// integer does not fit the type, and ``WireFormat/WireError/Code/invalidValue`` for a type that is not
    /// INT8…UINT64.
    public init<T: BinaryInteger>(_ integer: T, as type: DataTypeCode) throws(WireError) {
        func exact<U: FixedWidthInteger>(_: U.Type) throws(WireError) -> U {
            guard let value = U(exactly: integer) else {
                throw WireError(.doesNotFit, "\(integer) does not fit \(type)")
            }
            return value
        }
        switch type {
        case .int8: self = .int8(try exact(Int8.self))
        case .uint8: self = .uint8(try exact(UInt8.self))
        case .int16: self = .int16(try exact(Int16.self))
        case .uint16: self = .uint16(try exact(UInt16.self))
        case .int32: self = .int32(try exact(Int32.self))
        case .uint32: self = .uint32(try exact(UInt32.self))
        case .int64: self = .int64(try exact(Int64.self))
        case .uint64: self = .uint64(try exact(UInt64.self))
        default: throw WireError(.invalidValue, "\(type) is not a 8…64-bit integer type")
        }
    }

    /// The value as an `Int` when it is an integer of up to 64 bits that fits; `nil` otherwise.
    public var integerValue: Int? {
        switch self {
        case .int8(let value): Int(value)
        case .uint8(let value): Int(value)
        case .int16(let value): Int(value)
        case .uint16(let value): Int(value)
        case .int32(let value): Int(value)
        case .uint32(let value): Int(value)
        case .int64(let value): Int(value)
        case .uint64(let value): Int(exactly: value)
        case .int128, .uint128, .array, .string: nil
        }
    }

    /// The string of a ``string(_:)`` value.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The elements of an ``array(_:_:)`` value.
    public var arrayElements: [PTPValue]? {
        if case .array(_, let values) = self { return values }
        return nil
    }

    /// A short rendering: `400`, `"Canon EOS 60D"`, `[1, 2]`, or the 128-bit hex.
    public var description: String {
        switch self {
        case .int128(let value), .uint128(let value): value.description
        case .array(_, let values): "[" + values.map(\.description).joined(separator: ", ") + "]"
        case .string(let value): "\"\(value)\""
        default: integerValue.map(String.init) ?? "?"
        }
    }
}

/// A 128-bit value (INT128 or UINT128) kept as raw bits: PTP defines the types, but no camera property uses them
/// arithmetically, so rawcap carries the 16 bytes unchanged.
public struct PTPRaw128: Hashable, Sendable, CustomStringConvertible {
    /// Bytes 0…7 as a little-endian integer.
    public var low: UInt64
    /// Bytes 8…15 as a little-endian integer.
    public var high: UInt64

    /// Wraps the two halves.
    public init(low: UInt64, high: UInt64) { (self.low, self.high) = (low, high) }

    /// Wraps 16 little-endian bytes; `nil` unless there are exactly 16.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 16 else { return nil }
        var reader = WireReader(bytes, byteOrder: .little)
        guard let low = try? reader.read(UInt64.self), let high = try? reader.read(UInt64.self) else { return nil }
        (self.low, self.high) = (low, high)
    }

    /// The 16 bytes, little-endian.
    public var bytes: [UInt8] {
        var writer = WireWriter(byteOrder: .little, capacity: 16)
        writer.write(low)
        writer.write(high)
        return writer.bytes
    }

    /// `0x` and 32 hex digits, most significant first.
    public var description: String {
        func digits(_ value: UInt64) -> String {
            let text = String(value, radix: 16)
            return String(repeating: "0", count: 16 - text.count) + text
        }
        return "0x" + digits(high) + digits(low)
    }
}
