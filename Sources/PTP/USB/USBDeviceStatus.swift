import WireFormat

/// The data of the Get Device Status class request (0x67): why the device is not idle, and which endpoints it
/// halted (USB Still Image Capture Device Definition §5.2.4).
///
/// | offset | size | field |
/// |---|---|---|
/// | 0 | 2 | wLength: the whole block, in bytes |
/// | 2 | 2 | Code: a response code (OK when idle, DeviceBusy while it finishes a cancel) |
/// | 4 | 4 × n | endpoint addresses the host must clear (0x81 bulk IN, 0x02 bulk OUT, …) |
public struct USBDeviceStatus: Hashable, Sendable, CustomStringConvertible {
    /// The status as a response code.
    public var code: ResponseCode
    /// Endpoint addresses the device halted.
    public var stalledEndpointAddresses: [UInt32]

    /// Creates a status.
    public init(code: ResponseCode, stalledEndpointAddresses: [UInt32] = []) {
        (self.code, self.stalledEndpointAddresses) = (code, stalledEndpointAddresses)
    }

    /// Decodes a status block; bytes after wLength are ignored (the host asks for more than it needs).
    public init(usbEncoded bytes: [UInt8]) throws(WireError) {
        var reader = WireReader(bytes, byteOrder: .little)
        let length = Int(try reader.read(UInt16.self))
        guard length >= 4, (length - 4) % 4 == 0, length <= bytes.count else {
            throw WireError(.invalidValue, at: 0, "device status wLength \(length) with \(bytes.count) bytes")
        }
        code = ResponseCode(rawValue: try reader.read())
        stalledEndpointAddresses = []
        for _ in 0..<((length - 4) / 4) { stalledEndpointAddresses.append(try reader.read()) }
    }

    /// The status block's bytes.
    public var usbEncoded: [UInt8] {
        var writer = WireWriter(byteOrder: .little)
        writer.write(UInt16(4 + 4 * stalledEndpointAddresses.count))
        writer.write(code.rawValue)
        for address in stalledEndpointAddresses { writer.write(address) }
        return writer.bytes
    }

    /// E.g. `DeviceBusy, stalled [0x0081]`.
    public var description: String {
        stalledEndpointAddresses.isEmpty
            ? code.description : "\(code), stalled \(stalledEndpointAddresses.map(hex))"
    }
}
