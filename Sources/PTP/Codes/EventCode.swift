/// A PTP event code: what an event container announces.
///
/// Events arrive on the USB interrupt endpoint or the PTP/IP event connection, with up to three parameters. ISO 15740
/// §12.
public struct EventCode: PTPCodeTable {
    /// The 16-bit code as it appears on the wire.
    public let rawValue: UInt16

    /// Wraps any code, known or not: the table is open, so a camera's new codes pass through unharmed.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Undefined, 0x4000 (PTP §12).
    public static let undefined = EventCode(rawValue: 0x4000)
    /// CancelTransaction, 0x4001 (PTP §12).
    public static let cancelTransaction = EventCode(rawValue: 0x4001)
    /// ObjectAdded, 0x4002 (PTP §12): parameter 1 is the new object's handle.
    public static let objectAdded = EventCode(rawValue: 0x4002)
    /// ObjectRemoved, 0x4003 (PTP §12).
    public static let objectRemoved = EventCode(rawValue: 0x4003)
    /// StoreAdded, 0x4004 (PTP §12).
    public static let storeAdded = EventCode(rawValue: 0x4004)
    /// StoreRemoved, 0x4005 (PTP §12).
    public static let storeRemoved = EventCode(rawValue: 0x4005)
    /// DevicePropChanged, 0x4006 (PTP §12): parameter 1 is the property code.
    public static let devicePropChanged = EventCode(rawValue: 0x4006)
    /// ObjectInfoChanged, 0x4007 (PTP §12).
    public static let objectInfoChanged = EventCode(rawValue: 0x4007)
    /// DeviceInfoChanged, 0x4008 (PTP §12).
    public static let deviceInfoChanged = EventCode(rawValue: 0x4008)
    /// RequestObjectTransfer, 0x4009 (PTP §12).
    public static let requestObjectTransfer = EventCode(rawValue: 0x4009)
    /// StoreFull, 0x400A (PTP §12).
    public static let storeFull = EventCode(rawValue: 0x400A)
    /// DeviceReset, 0x400B (PTP §12).
    public static let deviceReset = EventCode(rawValue: 0x400B)
    /// StorageInfoChanged, 0x400C (PTP §12).
    public static let storageInfoChanged = EventCode(rawValue: 0x400C)
    /// CaptureComplete, 0x400D (PTP §12): parameter 1 is the capture's transaction ID.
    public static let captureComplete = EventCode(rawValue: 0x400D)
    /// UnreportedStatus, 0x400E (PTP §12).
    public static let unreportedStatus = EventCode(rawValue: 0x400E)

    /// The names of the codes the standard defines, keyed by raw value.
    public static let standardNames: [UInt16: String] = [
        0x4000: "Undefined",
        0x4001: "CancelTransaction",
        0x4002: "ObjectAdded",
        0x4003: "ObjectRemoved",
        0x4004: "StoreAdded",
        0x4005: "StoreRemoved",
        0x4006: "DevicePropChanged",
        0x4007: "ObjectInfoChanged",
        0x4008: "DeviceInfoChanged",
        0x4009: "RequestObjectTransfer",
        0x400A: "StoreFull",
        0x400B: "DeviceReset",
        0x400C: "StorageInfoChanged",
        0x400D: "CaptureComplete",
        0x400E: "UnreportedStatus",
    ]
}
