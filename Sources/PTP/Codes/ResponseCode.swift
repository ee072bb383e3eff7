/// A PTP response code: how the device answered an operation.
///
/// The session turns every code other than ``ok`` into a ``PTPError`` naming the operation; the code itself is data and
/// never mixes with host-side errors. ISO 15740 §11.
public struct ResponseCode: PTPCodeTable {
    /// The 16-bit code as it appears on the wire.
    public let rawValue: UInt16

    /// Wraps any code, known or not: the table is open, so a camera's new codes pass through unharmed.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Undefined, 0x2000 (PTP §11).
    public static let undefined = ResponseCode(rawValue: 0x2000)
    /// OK, 0x2001 (PTP §11): the operation succeeded.
    public static let ok = ResponseCode(rawValue: 0x2001)
    /// GeneralError, 0x2002 (PTP §11).
    public static let generalError = ResponseCode(rawValue: 0x2002)
    /// SessionNotOpen, 0x2003 (PTP §11).
    public static let sessionNotOpen = ResponseCode(rawValue: 0x2003)
    /// InvalidTransactionID, 0x2004 (PTP §11).
    public static let invalidTransactionID = ResponseCode(rawValue: 0x2004)
    /// OperationNotSupported, 0x2005 (PTP §11).
    public static let operationNotSupported = ResponseCode(rawValue: 0x2005)
    /// ParameterNotSupported, 0x2006 (PTP §11).
    public static let parameterNotSupported = ResponseCode(rawValue: 0x2006)
    /// IncompleteTransfer, 0x2007 (PTP §11).
    public static let incompleteTransfer = ResponseCode(rawValue: 0x2007)
    /// InvalidStorageID, 0x2008 (PTP §11).
    public static let invalidStorageID = ResponseCode(rawValue: 0x2008)
    /// InvalidObjectHandle, 0x2009 (PTP §11).
    public static let invalidObjectHandle = ResponseCode(rawValue: 0x2009)
    /// DevicePropNotSupported, 0x200A (PTP §11).
    public static let devicePropNotSupported = ResponseCode(rawValue: 0x200A)
    /// InvalidObjectFormatCode, 0x200B (PTP §11).
    public static let invalidObjectFormatCode = ResponseCode(rawValue: 0x200B)
    /// StoreFull, 0x200C (PTP §11).
    public static let storeFull = ResponseCode(rawValue: 0x200C)
    /// ObjectWriteProtected, 0x200D (PTP §11).
    public static let objectWriteProtected = ResponseCode(rawValue: 0x200D)
    /// StoreReadOnly, 0x200E (PTP §11).
    public static let storeReadOnly = ResponseCode(rawValue: 0x200E)
    /// AccessDenied, 0x200F (PTP §11).
    public static let accessDenied = ResponseCode(rawValue: 0x200F)
    /// NoThumbnailPresent, 0x2010 (PTP §11).
    public static let noThumbnailPresent = ResponseCode(rawValue: 0x2010)
    /// SelfTestFailed, 0x2011 (PTP §11).
    public static let selfTestFailed = ResponseCode(rawValue: 0x2011)
    /// PartialDeletion, 0x2012 (PTP §11).
    public static let partialDeletion = ResponseCode(rawValue: 0x2012)
    /// StoreNotAvailable, 0x2013 (PTP §11).
    public static let storeNotAvailable = ResponseCode(rawValue: 0x2013)
    /// SpecificationByFormatUnsupported, 0x2014 (PTP §11).
    public static let specificationByFormatUnsupported = ResponseCode(rawValue: 0x2014)
    /// NoValidObjectInfo, 0x2015 (PTP §11).
    public static let noValidObjectInfo = ResponseCode(rawValue: 0x2015)
    /// InvalidCodeFormat, 0x2016 (PTP §11).
    public static let invalidCodeFormat = ResponseCode(rawValue: 0x2016)
    /// UnknownVendorCode, 0x2017 (PTP §11).
    public static let unknownVendorCode = ResponseCode(rawValue: 0x2017)
    /// CaptureAlreadyTerminated, 0x2018 (PTP §11).
    public static let captureAlreadyTerminated = ResponseCode(rawValue: 0x2018)
    /// DeviceBusy, 0x2019 (PTP §11).
    public static let deviceBusy = ResponseCode(rawValue: 0x2019)
    /// InvalidParentObject, 0x201A (PTP §11).
    public static let invalidParentObject = ResponseCode(rawValue: 0x201A)
    /// InvalidDevicePropFormat, 0x201B (PTP §11).
    public static let invalidDevicePropFormat = ResponseCode(rawValue: 0x201B)
    /// InvalidDevicePropValue, 0x201C (PTP §11).
    public static let invalidDevicePropValue = ResponseCode(rawValue: 0x201C)
    /// InvalidParameter, 0x201D (PTP §11).
    public static let invalidParameter = ResponseCode(rawValue: 0x201D)
    /// SessionAlreadyOpened, 0x201E (PTP §11).
    public static let sessionAlreadyOpened = ResponseCode(rawValue: 0x201E)
    /// TransactionCanceled, 0x201F (PTP §11).
    public static let transactionCanceled = ResponseCode(rawValue: 0x201F)
    /// SpecificationOfDestinationUnsupported, 0x2020 (PTP §11).
    public static let specificationOfDestinationUnsupported = ResponseCode(rawValue: 0x2020)
    /// InvalidEnumHandle, 0x2021 (PTP §11): PTP 1.1.
    public static let invalidEnumHandle = ResponseCode(rawValue: 0x2021)
    /// NoStreamEnabled, 0x2022 (PTP §11): PTP 1.1.
    public static let noStreamEnabled = ResponseCode(rawValue: 0x2022)
    /// InvalidDataset, 0x2023 (PTP §11): PTP 1.1.
    public static let invalidDataset = ResponseCode(rawValue: 0x2023)

    /// The names of the codes the standard defines, keyed by raw value.
    public static let standardNames: [UInt16: String] = [
        0x2000: "Undefined",
        0x2001: "OK",
        0x2002: "GeneralError",
        0x2003: "SessionNotOpen",
        0x2004: "InvalidTransactionID",
        0x2005: "OperationNotSupported",
        0x2006: "ParameterNotSupported",
        0x2007: "IncompleteTransfer",
        0x2008: "InvalidStorageID",
        0x2009: "InvalidObjectHandle",
        0x200A: "DevicePropNotSupported",
        0x200B: "InvalidObjectFormatCode",
        0x200C: "StoreFull",
        0x200D: "ObjectWriteProtected",
        0x200E: "StoreReadOnly",
        0x200F: "AccessDenied",
        0x2010: "NoThumbnailPresent",
        0x2011: "SelfTestFailed",
        0x2012: "PartialDeletion",
        0x2013: "StoreNotAvailable",
        0x2014: "SpecificationByFormatUnsupported",
        0x2015: "NoValidObjectInfo",
        0x2016: "InvalidCodeFormat",
        0x2017: "UnknownVendorCode",
        0x2018: "CaptureAlreadyTerminated",
        0x2019: "DeviceBusy",
        0x201A: "InvalidParentObject",
        0x201B: "InvalidDevicePropFormat",
        0x201C: "InvalidDevicePropValue",
        0x201D: "InvalidParameter",
        0x201E: "SessionAlreadyOpened",
        0x201F: "TransactionCanceled",
        0x2020: "SpecificationOfDestinationUnsupported",
        0x2021: "InvalidEnumHandle",
        0x2022: "NoStreamEnabled",
        0x2023: "InvalidDataset",
    ]

    /// Whether this is ``ok``.
    public var isOK: Bool { self == .ok }
}
