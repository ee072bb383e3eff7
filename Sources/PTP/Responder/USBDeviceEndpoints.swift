/// A class request's outcome as the camera side answers it.
public enum USBControlReply: Sendable, Hashable {
    /// The request succeeded; for IN requests, the data returned.
    case data([UInt8])
    /// The device stalled the control request.
    case stall
}

/// Handles a class request on the camera side: the request, and the data of an OUT request.
public typealias USBControlHandler = @Sendable (StillImageClassRequest, [UInt8]) async -> USBControlReply

/// The camera's end of a USB link: what ``USBDeviceSide`` needs to act as a PTP device.
///
/// ``InMemoryBulkPipe/Device`` implements it for tests and the emulator; an adapter over umockdev's ioctl handler
/// can implement it to put the same camera behind real libusb. Bulk OUT is read in transfers that end at a short
/// packet, as on the host side; a bulk IN write of a multiple of ``maxPacketSize`` continues the transfer, anything
/// shorter ends it, and an empty write is a zero-length packet.
public protocol USBDeviceEndpoints: Sendable {
    /// wMaxPacketSize of the bulk endpoints.
    var maxPacketSize: Int { get }
    /// wMaxPacketSize of the interrupt endpoint.
    var interruptMaxPacketSize: Int { get }

    /// Reads one bulk OUT transfer; `timeout` `nil` waits as long as it takes.
    func readBulkOut(maxLength: Int, timeout: Duration?) async throws(USBPipeError) -> [UInt8]
    /// Writes packets to bulk IN, waiting while the host is behind.
    func writeBulkIn(_ bytes: [UInt8]) async throws(USBPipeError)
    /// Writes packets to interrupt IN.
    func writeInterrupt(_ bytes: [UInt8]) async throws(USBPipeError)
    /// Halts an endpoint until the host clears it.
    func stall(_ endpoint: USBEndpoint) async
    /// Whether an endpoint is halted.
    func isStalled(_ endpoint: USBEndpoint) async -> Bool
    /// Drops bulk IN data the host has not read yet (after a cancel).
    func discardBulkIn() async
    /// Drops bulk OUT data the device has not read yet.
    func discardBulkOut() async
    /// Installs the handler for class requests.
    func setControlHandler(_ handler: USBControlHandler?) async
    /// Breaks the link for good.
    func disconnect() async
}

extension USBEndpoint {
    /// The endpoint's conventional address, as Get Device Status lists halted endpoints: 0x81 bulk IN, 0x02 bulk
    /// OUT, 0x83 interrupt IN (the layout of most PTP cameras; the direction bit 0x80 is what matters).
    public var conventionalAddress: UInt32 {
        switch self {
        case .bulkIn: 0x81
        case .bulkOut: 0x02
        case .interrupt: 0x83
        }
    }
}
