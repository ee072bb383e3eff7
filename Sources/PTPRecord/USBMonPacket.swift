import WireFormat

/// One Linux usbmon event: the header the kernel's binary interface gives (`Documentation/usb/usbmon.rst`, "struct
/// usbmon_packet") and the data captured with it; a packet of link type 220 (64-byte header) or 189 (48-byte
/// header, without the last four fields).
///
/// | offset | size | field |
/// |---|---|---|
/// | 0 | 8 | id: the URB's address, the same in its submission and its completion |
/// | 8 | 1 | type: `S` submission, `C` completion, `E` error |
/// | 9 | 1 | xfer_type: 0 isochronous, 1 interrupt, 2 control, 3 bulk |
/// | 10 | 1 | epnum: endpoint number, bit 7 set for IN |
/// | 11 | 1 | devnum: device address |
/// | 12 | 2 | busnum |
/// | 14 | 1 | flag_setup: 0 when `setup` is valid (control submissions), `-` otherwise |
/// | 15 | 1 | flag_data: 0 when data follows; `<` (IN submission) or `>` (OUT completion) when not |
/// | 16 | 8 | ts_sec (signed) |
/// | 24 | 4 | ts_usec (signed) |
/// | 28 | 4 | status: 0, a negative errno, or −EINPROGRESS (−115) on submission |
/// | 32 | 4 | length: bytes asked for (submission) or transferred (completion) |
/// | 36 | 4 | len_cap: bytes of data captured after the header |
/// | 40 | 8 | setup: the control request's 8 bytes |
/// | 48 | 4 | interval (64-byte header only) |
/// | 52 | 4 | start_frame |
/// | 56 | 4 | xfer_flags (`URB_DIR_IN` 0x200) |
/// | 60 | 4 | ndesc: isochronous descriptors after the header |
///
/// The header is in the byte order of the machine that captured it, which is the capture file's byte order.
public struct USBMonPacket: Hashable, Sendable {
    /// The event kind.
    public enum EventType: UInt8, Sendable {
        /// `S`: the URB was submitted.
        case submission = 0x53
        /// `C`: the URB completed.
        case completion = 0x43
        /// `E`: submission failed.
        case error = 0x45
    }

    /// The transfer kind.
    public enum TransferType: UInt8, Sendable {
        /// Isochronous.
        case isochronous = 0
        /// Interrupt (PTP events).
        case interrupt = 1
        /// Control (descriptors, class requests).
        case control = 2
        /// Bulk (commands, data, responses).
        case bulk = 3
    }

    /// `-EINPROGRESS`, the status of every submission.
    public static let statusInProgress: Int32 = -115
    /// `URB_DIR_IN` in xfer_flags.
    public static let directionInFlag: UInt32 = 0x200
    /// The 64-byte header's size.
    public static let mmappedHeaderByteCount = 64
    /// The 48-byte header's size.
    public static let headerByteCount = 48

    /// The URB's id, shared by its submission and its completion.
    public var id: UInt64
    /// Submission, completion or error.
    public var eventType: EventType
    /// Interrupt, control, bulk or isochronous.
    public var transferType: TransferType
    /// The endpoint address, with 0x80 for IN.
    public var endpoint: UInt8
    /// The device address.
    public var deviceAddress: UInt8
    /// The bus number.
    public var busNumber: UInt16
    /// The control request's setup packet (control submissions only).
    public var setup: [UInt8]?
    /// Why no data is attached (`<`, `>`), or `nil` when data is attached or there is none to attach.
    public var dataFlag: UInt8?
    /// Seconds since the epoch.
    public var timestampSeconds: Int64
    /// Microseconds within the second.
    public var timestampMicroseconds: Int32
    /// 0, a negative errno, or ``statusInProgress``.
    public var status: Int32
    /// Bytes asked for (submission) or transferred (completion).
    public var length: UInt32
    /// The interrupt endpoint's polling interval.
    public var interval: Int32
    /// URB transfer flags.
    public var transferFlags: UInt32
    /// The captured data.
    public var data: [UInt8]

    /// Creates a packet.
    public init(
        id: UInt64, eventType: EventType, transferType: TransferType, endpoint: UInt8, deviceAddress: UInt8,
        busNumber: UInt16, setup: [UInt8]? = nil, dataFlag: UInt8? = nil, timestampSeconds: Int64 = 0,
        timestampMicroseconds: Int32 = 0, status: Int32, length: UInt32, interval: Int32 = 0,
        transferFlags: UInt32 = 0, data: [UInt8] = []
    ) {
        self.id = id
        self.eventType = eventType
        self.transferType = transferType
        self.endpoint = endpoint
        self.deviceAddress = deviceAddress
        self.busNumber = busNumber
        self.setup = setup
        self.dataFlag = dataFlag
        self.timestampSeconds = timestampSeconds
        self.timestampMicroseconds = timestampMicroseconds
        self.status = status
        self.length = length
        self.interval = interval
        self.transferFlags = transferFlags
        self.data = data
    }

    /// Whether the endpoint is IN (device to host).
    public var isIn: Bool { endpoint & 0x80 != 0 }

    /// The packet as link type 220: the 64-byte header, then the data.
    public func mmappedEncoded(byteOrder: ByteOrder = .little) -> [UInt8] {
        var writer = WireWriter(byteOrder: byteOrder, capacity: Self.mmappedHeaderByteCount + data.count)
        writer.write(id)
        writer.write(eventType.rawValue)
        writer.write(transferType.rawValue)
        writer.write(endpoint)
        writer.write(deviceAddress)
        writer.write(busNumber)
        writer.write(setup == nil ? UInt8(ascii: "-") : 0)
        writer.write(data.isEmpty ? (dataFlag ?? 0) : 0)
        writer.write(timestampSeconds)
        writer.write(timestampMicroseconds)
        writer.write(status)
        writer.write(length)
        writer.write(UInt32(data.count))
        writer.write(bytes: (setup ?? []) + [UInt8](repeating: 0, count: 8 - min(8, setup?.count ?? 0)))
        writer.write(interval)
        writer.write(Int32(0))
        writer.write(transferFlags)
        writer.write(UInt32(0))
        writer.write(bytes: data)
        return writer.bytes
    }

    /// Decodes a usbmon packet with the 64-byte (`mmapped: true`, link type 220) or 48-byte header (189).
    ///
    /// Isochronous descriptors (link type 220) are skipped; data is what follows, up to len_cap bytes — fewer when
    /// the capture's snap length cut the packet.
    public init(_ bytes: ArraySlice<UInt8>, mmapped: Bool, byteOrder: ByteOrder) throws(WireError) {
        var reader = WireReader(bytes, byteOrder: byteOrder)
        id = try reader.read()
        let type = try reader.read(UInt8.self)
        guard let eventType = EventType(rawValue: type) else {
            throw WireError(.invalidValue, at: reader.offset - 1, "usbmon event type 0x\(String(type, radix: 16))")
        }
        self.eventType = eventType
        let transfer = try reader.read(UInt8.self)
        guard let transferType = TransferType(rawValue: transfer) else {
            throw WireError(.invalidValue, at: reader.offset - 1, "usbmon transfer type \(transfer)")
        }
        self.transferType = transferType
        endpoint = try reader.read()
        deviceAddress = try reader.read()
        busNumber = try reader.read()
        let flagSetup = try reader.read(UInt8.self)
        let flagData = try reader.read(UInt8.self)
        dataFlag = flagData == 0 ? nil : flagData
        timestampSeconds = try reader.read()
        timestampMicroseconds = try reader.read()
        status = try reader.read()
        length = try reader.read()
        let capturedLength = try reader.read(UInt32.self)
        let setupBytes = Array(try reader.readBytes(count: 8))
        setup = flagSetup == 0 ? setupBytes : nil
        var descriptorCount: UInt32 = 0
        if mmapped {
            interval = try reader.read()
            _ = try reader.read(Int32.self)
            transferFlags = try reader.read()
            descriptorCount = try reader.read()
        } else {
            interval = 0
            transferFlags = 0
        }
        if transferType == .isochronous && descriptorCount > 0 {
            // Each isochronous descriptor is 16 bytes; they come before the data.
            let (size, overflow) = Int(descriptorCount).multipliedReportingOverflow(by: 16)
            guard !overflow, size <= reader.remainingCount else {
                throw WireError(.truncated, at: reader.offset, "\(descriptorCount) isochronous descriptors")
            }
            try reader.skip(size)
        }
        data = flagData == 0 ? Array(reader.readRemaining().prefix(Int(capturedLength))) : []
    }
}
