/// An endpoint of the PTP interface (USB Still Image class: one bulk OUT, one bulk IN, one interrupt IN).
public enum USBEndpoint: Hashable, Sendable {
    /// Bulk OUT: commands and host data phases.
    case bulkOut
    /// Bulk IN: device data phases and responses.
    case bulkIn
    /// Interrupt IN: events.
    case interrupt
}

/// A class-specific control request of the USB Still Image class (USB Still Image Capture Device Definition §5.2;
/// libgphoto2 `usb.c`). bmRequestType is class/interface, wValue 0, wIndex the interface number.
public struct StillImageClassRequest: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// bRequest.
    public let rawValue: UInt8

    /// Wraps any request number.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0x64 Cancel Request (OUT, 6 bytes: UINT16 0x4001 CancelTransaction, UINT32 TransactionID).
    public static let cancel = StillImageClassRequest(rawValue: 0x64)
    /// 0x65 Get Extended Event Data (IN).
    public static let getExtendedEventData = StillImageClassRequest(rawValue: 0x65)
    /// 0x66 Device Reset Request (OUT, no data).
    public static let deviceReset = StillImageClassRequest(rawValue: 0x66)
    /// 0x67 Get Device Status (IN: ``USBDeviceStatus``).
    public static let getDeviceStatus = StillImageClassRequest(rawValue: 0x67)

    /// Whether the request reads data from the device (IN) rather than sending it (OUT).
    public var isDeviceToHost: Bool { self == .getExtendedEventData || self == .getDeviceStatus }

    /// The request's name.
    public var description: String {
        switch rawValue {
        case 0x64: "Cancel"
        case 0x65: "GetExtendedEventData"
        case 0x66: "DeviceReset"
        case 0x67: "GetDeviceStatus"
        default: "Unknown(\(hex(rawValue)))"
        }
    }
}

/// The USB-level seam under ``PTPUSBTransport``: the PTP interface's three endpoints and its class requests.
///
/// The libusb implementation (`PTPUSB`) runs its blocking calls on a dedicated thread, never on Swift's shared
/// concurrency pool; tests and the emulator use ``InMemoryBulkPipe``. Every method throws ``USBPipeError``.
///
/// ## Transfer semantics (USB 2.0 §5.8.3)
///
/// A bulk read asks for up to `maxLength` bytes, a multiple of ``maxPacketSize``. It completes when the buffer is
/// full or when a short packet (shorter than ``maxPacketSize``, zero-length included) arrives, and returns what
/// that one transfer carried; the caller learns that the transfer ended short because it got fewer bytes than it
/// asked for. A timeout after some packets throws ``USBPipeError/Code/timeout`` with the bytes received in
/// ``USBPipeError/partialData`` (libusb's `actual_length`). A write of a multiple of ``maxPacketSize`` does not
/// end a phase by itself: the caller writes an empty buffer to send the zero-length packet.
public protocol USBBulkPipe: Sendable {
    /// wMaxPacketSize of the bulk endpoints: 64 (full speed), 512 (high speed) or 1024 (super speed).
    var maxPacketSize: Int { get }
    /// wMaxPacketSize of the interrupt endpoint (often 8–64).
    var interruptMaxPacketSize: Int { get }

    /// Writes `bytes` to bulk OUT as one transfer (packets of ``maxPacketSize``); an empty buffer sends a ZLP.
    func writeBulkOut(_ bytes: [UInt8], timeout: Duration) async throws(USBPipeError)
    /// Reads one bulk IN transfer of up to `maxLength` bytes (see the type's transfer semantics).
    func readBulkIn(maxLength: Int, timeout: Duration) async throws(USBPipeError) -> [UInt8]
    /// Reads one interrupt IN transfer of up to `maxLength` bytes.
    func readInterrupt(maxLength: Int, timeout: Duration) async throws(USBPipeError) -> [UInt8]
    /// Clears a halt (stall) on `endpoint` (libusb `libusb_clear_halt`).
    func clearHalt(_ endpoint: USBEndpoint) async throws(USBPipeError)
    /// Sends a class request: `data` for OUT requests, up to `maxLength` bytes returned for IN requests.
    func classRequest(
        _ request: StillImageClassRequest, data: [UInt8], maxLength: Int, timeout: Duration
    ) async throws(USBPipeError) -> [UInt8]
}
