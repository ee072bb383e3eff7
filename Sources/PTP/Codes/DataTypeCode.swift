/// The type of a property value on the wire (ISO 15740 §5.3; libgphoto2 `PTP_DTC_*`).
///
/// Scalars are 0x0001 (INT8) to 0x000A (UINT128); `0x4000 | t` is an array of `t` (a `UInt32` count, then the
/// elements); 0xFFFF is a PTP string. Values of every type decode into ``PTPValue``.
public struct DataTypeCode: PTPCodeTable {
    /// The 16-bit code as it appears in a DevicePropDesc.
    public let rawValue: UInt16

    /// Wraps any code.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// UNDEF, 0x0000: no type; never valid for a value.
    public static let undefined = DataTypeCode(rawValue: 0x0000)
    /// INT8, 0x0001.
    public static let int8 = DataTypeCode(rawValue: 0x0001)
    /// UINT8, 0x0002.
    public static let uint8 = DataTypeCode(rawValue: 0x0002)
    /// INT16, 0x0003.
    public static let int16 = DataTypeCode(rawValue: 0x0003)
    /// UINT16, 0x0004.
    public static let uint16 = DataTypeCode(rawValue: 0x0004)
    /// INT32, 0x0005.
    public static let int32 = DataTypeCode(rawValue: 0x0005)
    /// UINT32, 0x0006.
    public static let uint32 = DataTypeCode(rawValue: 0x0006)
    /// INT64, 0x0007.
    public static let int64 = DataTypeCode(rawValue: 0x0007)
    /// UINT64, 0x0008.
    public static let uint64 = DataTypeCode(rawValue: 0x0008)
    /// INT128, 0x0009: kept as 16 raw bytes.
    public static let int128 = DataTypeCode(rawValue: 0x0009)
    /// UINT128, 0x000A: kept as 16 raw bytes.
    public static let uint128 = DataTypeCode(rawValue: 0x000A)
    /// STR, 0xFFFF: a PTP string.
    public static let string = DataTypeCode(rawValue: 0xFFFF)

    /// The bit that marks an array type.
    public static let arrayFlag: UInt16 = 0x4000

    /// The array type whose elements are `element` (`AUINT16` is `array(of: .uint16)`).
    public static func array(of element: DataTypeCode) -> DataTypeCode {
        DataTypeCode(rawValue: arrayFlag | element.rawValue)
    }

    /// Whether this is an array of an integer type (0x4001–0x400A).
    public var isArray: Bool { rawValue != 0xFFFF && rawValue & Self.arrayFlag != 0 && elementType.isScalar }

    /// The element type of an array type; the type itself for anything else.
    public var elementType: DataTypeCode {
        rawValue != 0xFFFF && rawValue & Self.arrayFlag != 0 ? DataTypeCode(rawValue: rawValue & ~Self.arrayFlag) : self
    }

    /// Whether this is one of the ten integer types INT8…UINT128.
    public var isScalar: Bool { (0x0001...0x000A).contains(rawValue) }

    /// Whether this is a signed integer type (INT8, INT16, INT32, INT64, INT128).
    public var isSigned: Bool { isScalar && rawValue % 2 == 1 }

    /// The size in bytes of one scalar value (1…16), or `nil` for arrays, strings and undefined types.
    public var scalarByteCount: Int? {
        guard isScalar else { return nil }
        return 1 << ((Int(rawValue) - 1) / 2)
    }

    /// The names of every type a value may have, arrays included.
    public static let standardNames: [UInt16: String] = {
        let scalars: [(UInt16, String)] = [
            (0x0001, "INT8"), (0x0002, "UINT8"), (0x0003, "INT16"), (0x0004, "UINT16"), (0x0005, "INT32"),
            (0x0006, "UINT32"), (0x0007, "INT64"), (0x0008, "UINT64"), (0x0009, "INT128"), (0x000A, "UINT128"),
        ]
        var names: [UInt16: String] = [0x0000: "UNDEF", 0xFFFF: "STR"]
        for (code, name) in scalars {
            names[code] = name
            names[arrayFlag | code] = "A" + name
        }
        return names
    }()
}
