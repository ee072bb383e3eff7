/// A PTP operation code: the request a command container carries.
///
/// Standard codes are static members (`OperationCode.getDeviceInfo`); vendor codes (0x9000–0x9FFF) sit in namespaces
/// such as ``OperationCode/Nikon`` and are named in logs with ``PTPCodeTable/description(vendor:)``. ISO 15740
/// §10.4–10.5.
public struct OperationCode: PTPCodeTable {
    /// The 16-bit code as it appears on the wire.
    public let rawValue: UInt16

    /// Wraps any code, known or not: the table is open, so a camera's new codes pass through unharmed.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Undefined, 0x1000 (PTP §10.5).
    public static let undefined = OperationCode(rawValue: 0x1000)
    /// GetDeviceInfo, 0x1001 (PTP §10.5): the DeviceInfo dataset; legal outside a session.
    public static let getDeviceInfo = OperationCode(rawValue: 0x1001)
    /// OpenSession, 0x1002 (PTP §10.5): parameter 1 is the session ID (never 0); sent with transaction ID 0.
    public static let openSession = OperationCode(rawValue: 0x1002)
    /// CloseSession, 0x1003 (PTP §10.5).
    public static let closeSession = OperationCode(rawValue: 0x1003)
    /// GetStorageIDs, 0x1004 (PTP §10.5): a StorageID array.
    public static let getStorageIDs = OperationCode(rawValue: 0x1004)
    /// GetStorageInfo, 0x1005 (PTP §10.5): parameter 1 is the storage ID.
    public static let getStorageInfo = OperationCode(rawValue: 0x1005)
    /// GetNumObjects, 0x1006 (PTP §10.5): parameters storage, format, parent; response parameter 1 is the count.
    public static let getNumObjects = OperationCode(rawValue: 0x1006)
    /// GetObjectHandles, 0x1007 (PTP §10.5): parameters storage (0xFFFFFFFF all), format (0 all), parent (0xFFFFFFFF
    /// root).
    public static let getObjectHandles = OperationCode(rawValue: 0x1007)
    /// GetObjectInfo, 0x1008 (PTP §10.5): parameter 1 is the object handle.
    public static let getObjectInfo = OperationCode(rawValue: 0x1008)
    /// GetObject, 0x1009 (PTP §10.5): the object's bytes as the data phase.
    public static let getObject = OperationCode(rawValue: 0x1009)
    /// GetThumb, 0x100A (PTP §10.5): the thumbnail's bytes as the data phase.
    public static let getThumb = OperationCode(rawValue: 0x100A)
    /// DeleteObject, 0x100B (PTP §10.5): parameters handle, format.
    public static let deleteObject = OperationCode(rawValue: 0x100B)
    /// SendObjectInfo, 0x100C (PTP §10.5): data-out ObjectInfo.
    public static let sendObjectInfo = OperationCode(rawValue: 0x100C)
    /// SendObject, 0x100D (PTP §10.5): data-out object bytes.
    public static let sendObject = OperationCode(rawValue: 0x100D)
    /// InitiateCapture, 0x100E (PTP §10.5): parameters storage, format; completion is signalled by events.
    public static let initiateCapture = OperationCode(rawValue: 0x100E)
    /// FormatStore, 0x100F (PTP §10.5).
    public static let formatStore = OperationCode(rawValue: 0x100F)
    /// ResetDevice, 0x1010 (PTP §10.5).
    public static let resetDevice = OperationCode(rawValue: 0x1010)
    /// SelfTest, 0x1011 (PTP §10.5).
    public static let selfTest = OperationCode(rawValue: 0x1011)
    /// SetObjectProtection, 0x1012 (PTP §10.5).
    public static let setObjectProtection = OperationCode(rawValue: 0x1012)
    /// PowerDown, 0x1013 (PTP §10.5).
    public static let powerDown = OperationCode(rawValue: 0x1013)
    /// GetDevicePropDesc, 0x1014 (PTP §10.5): parameter 1 is the property code.
    public static let getDevicePropDesc = OperationCode(rawValue: 0x1014)
    /// GetDevicePropValue, 0x1015 (PTP §10.5): parameter 1 is the property code; the data phase is the value.
    public static let getDevicePropValue = OperationCode(rawValue: 0x1015)
    /// SetDevicePropValue, 0x1016 (PTP §10.5): parameter 1 is the property code; data-out value.
    public static let setDevicePropValue = OperationCode(rawValue: 0x1016)
    /// ResetDevicePropValue, 0x1017 (PTP §10.5).
    public static let resetDevicePropValue = OperationCode(rawValue: 0x1017)
    /// TerminateOpenCapture, 0x1018 (PTP §10.5).
    public static let terminateOpenCapture = OperationCode(rawValue: 0x1018)
    /// MoveObject, 0x1019 (PTP §10.5).
    public static let moveObject = OperationCode(rawValue: 0x1019)
    /// CopyObject, 0x101A (PTP §10.5).
    public static let copyObject = OperationCode(rawValue: 0x101A)
    /// GetPartialObject, 0x101B (PTP §10.5): parameters handle, offset, max bytes; response parameter 1 is the byte
    /// count sent.
    public static let getPartialObject = OperationCode(rawValue: 0x101B)
    /// InitiateOpenCapture, 0x101C (PTP §10.5).
    public static let initiateOpenCapture = OperationCode(rawValue: 0x101C)
    /// StartEnumHandles, 0x101D (PTP §10.5): PTP 1.1.
    public static let startEnumHandles = OperationCode(rawValue: 0x101D)
    /// EnumHandles, 0x101E (PTP §10.5): PTP 1.1.
    public static let enumHandles = OperationCode(rawValue: 0x101E)
    /// StopEnumHandles, 0x101F (PTP §10.5): PTP 1.1.
    public static let stopEnumHandles = OperationCode(rawValue: 0x101F)
    /// GetVendorExtensionMaps, 0x1020 (PTP §10.5): PTP 1.1.
    public static let getVendorExtensionMaps = OperationCode(rawValue: 0x1020)
    /// GetVendorDeviceInfo, 0x1021 (PTP §10.5): PTP 1.1.
    public static let getVendorDeviceInfo = OperationCode(rawValue: 0x1021)
    /// GetResizedImageObject, 0x1022 (PTP §10.5): PTP 1.1.
    public static let getResizedImageObject = OperationCode(rawValue: 0x1022)
    /// GetFilesystemManifest, 0x1023 (PTP §10.5): PTP 1.1.
    public static let getFilesystemManifest = OperationCode(rawValue: 0x1023)
    /// GetStreamInfo, 0x1024 (PTP §10.5): PTP 1.1.
    public static let getStreamInfo = OperationCode(rawValue: 0x1024)
    /// GetStream, 0x1025 (PTP §10.5): PTP 1.1.
    public static let getStream = OperationCode(rawValue: 0x1025)

    /// The names of the codes the standard defines, keyed by raw value.
    public static let standardNames: [UInt16: String] = [
        0x1000: "Undefined",
        0x1001: "GetDeviceInfo",
        0x1002: "OpenSession",
        0x1003: "CloseSession",
        0x1004: "GetStorageIDs",
        0x1005: "GetStorageInfo",
        0x1006: "GetNumObjects",
        0x1007: "GetObjectHandles",
        0x1008: "GetObjectInfo",
        0x1009: "GetObject",
        0x100A: "GetThumb",
        0x100B: "DeleteObject",
        0x100C: "SendObjectInfo",
        0x100D: "SendObject",
        0x100E: "InitiateCapture",
        0x100F: "FormatStore",
        0x1010: "ResetDevice",
        0x1011: "SelfTest",
        0x1012: "SetObjectProtection",
        0x1013: "PowerDown",
        0x1014: "GetDevicePropDesc",
        0x1015: "GetDevicePropValue",
        0x1016: "SetDevicePropValue",
        0x1017: "ResetDevicePropValue",
        0x1018: "TerminateOpenCapture",
        0x1019: "MoveObject",
        0x101A: "CopyObject",
        0x101B: "GetPartialObject",
        0x101C: "InitiateOpenCapture",
        0x101D: "StartEnumHandles",
        0x101E: "EnumHandles",
        0x101F: "StopEnumHandles",
        0x1020: "GetVendorExtensionMaps",
        0x1021: "GetVendorDeviceInfo",
        0x1022: "GetResizedImageObject",
        0x1023: "GetFilesystemManifest",
        0x1024: "GetStreamInfo",
        0x1025: "GetStream",
    ]
}
