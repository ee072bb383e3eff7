/// A return code of LibRaw's C API (the enum `LibRaw_errors` in `libraw_const.h`), kept as data.
///
/// Open like the other code tables (STYLE.md §4): a code LibRaw adds later prints as `Unknown(-123)`.
public struct LibRawStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The call succeeded. The corresponding C constant is `LIBRAW_SUCCESS` (0).
    public static let success = LibRawStatus(rawValue: 0)
    /// `LIBRAW_UNSPECIFIED_ERROR` (-1).
    public static let unspecifiedError = LibRawStatus(rawValue: -1)
    /// The file is not in a format LibRaw reads. `LIBRAW_FILE_UNSUPPORTED` (-2).
    public static let fileUnsupported = LibRawStatus(rawValue: -2)
    /// `LIBRAW_REQUEST_FOR_NONEXISTENT_IMAGE` (-3).
    public static let requestForNonexistentImage = LibRawStatus(rawValue: -3)
    /// `LIBRAW_OUT_OF_ORDER_CALL` (-4).
    public static let outOfOrderCall = LibRawStatus(rawValue: -4)
    /// The file has no embedded thumbnail. `LIBRAW_NO_THUMBNAIL` (-5).
    public static let noThumbnail = LibRawStatus(rawValue: -5)
    /// `LIBRAW_UNSUPPORTED_THUMBNAIL` (-6).
    public static let unsupportedThumbnail = LibRawStatus(rawValue: -6)
    /// `LIBRAW_INPUT_CLOSED` (-7).
    public static let inputClosed = LibRawStatus(rawValue: -7)
    /// `LIBRAW_NOT_IMPLEMENTED` (-8).
    public static let notImplemented = LibRawStatus(rawValue: -8)
    /// An allocation failed or exceeded `max_raw_memory_mb`. `LIBRAW_UNSUFFICIENT_MEMORY` (-100007).
    public static let insufficientMemory = LibRawStatus(rawValue: -100_007)
    /// The compressed data is damaged. `LIBRAW_DATA_ERROR` (-100008).
    public static let dataError = LibRawStatus(rawValue: -100_008)
    /// Reading the input failed, usually because it ends early. `LIBRAW_IO_ERROR` (-100009).
    public static let ioError = LibRawStatus(rawValue: -100_009)
    /// `LIBRAW_CANCELLED_BY_CALLBACK` (-100010).
    public static let cancelledByCallback = LibRawStatus(rawValue: -100_010)
    /// `LIBRAW_BAD_CROP` (-100011).
    public static let badCrop = LibRawStatus(rawValue: -100_011)
    /// The image is larger than LibRaw accepts. `LIBRAW_TOO_BIG` (-100012).
    public static let tooBig = LibRawStatus(rawValue: -100_012)
    /// `LIBRAW_MEMPOOL_OVERFLOW` (-100013).
    public static let memPoolOverflow = LibRawStatus(rawValue: -100_013)

    /// The C constant's name, or `Unknown(n)`.
    public var description: String {
        switch rawValue {
        case 0: "LIBRAW_SUCCESS"
        case -1: "LIBRAW_UNSPECIFIED_ERROR"
        case -2: "LIBRAW_FILE_UNSUPPORTED"
        case -3: "LIBRAW_REQUEST_FOR_NONEXISTENT_IMAGE"
        case -4: "LIBRAW_OUT_OF_ORDER_CALL"
        case -5: "LIBRAW_NO_THUMBNAIL"
        case -6: "LIBRAW_UNSUPPORTED_THUMBNAIL"
        case -7: "LIBRAW_INPUT_CLOSED"
        case -8: "LIBRAW_NOT_IMPLEMENTED"
        case -100_007: "LIBRAW_UNSUFFICIENT_MEMORY"
        case -100_008: "LIBRAW_DATA_ERROR"
        case -100_009: "LIBRAW_IO_ERROR"
        case -100_010: "LIBRAW_CANCELLED_BY_CALLBACK"
        case -100_011: "LIBRAW_BAD_CROP"
        case -100_012: "LIBRAW_TOO_BIG"
        case -100_013: "LIBRAW_MEMPOOL_OVERFLOW"
        default: "Unknown(\(rawValue))"
        }
    }

    /// The ``DecodeError/Code`` a caller acts on for this status.
    public var decodeErrorCode: DecodeError.Code {
        switch self {
        case .fileUnsupported, .notImplemented, .requestForNonexistentImage: .unsupported
        case .dataError: .corrupt
        case .ioError: .truncated
        case .tooBig, .insufficientMemory, .memPoolOverflow: .tooLarge
        default: .libRaw
        }
    }
}
