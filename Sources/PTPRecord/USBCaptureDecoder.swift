import PTP
import WireFormat

/// Finds a PTP camera in captured USB traffic (Linux usbmon, link types 220 and 189; Windows USBPcap, 249) and
/// turns its transfers into ``ConversationMessage``s.
///
/// Each device on the capture is followed separately. A device counts as a PTP camera from its first bulk OUT
/// transfer that is exactly one command container (12 to 32 bytes, type 1, its own length): mass storage,
/// keyboards and a capture started in the middle of a data phase never qualify, so their bytes are never framed.
/// From there its bulk OUT transfers (submissions, which carry OUT data) and bulk IN transfers (completions, which
/// carry IN data) go through container framing, and interrupt IN completions carry events, stitched by the
/// container's length when an event spans several interrupt transfers. A bulk transfer that ended short (fewer
/// bytes than the submission asked for) ends a container of unknown length, as on the bus.
struct USBCaptureDecoder: Sendable {
    struct DeviceKey: Hashable, Sendable {
        var bus: UInt16
        var address: UInt16
    }

    private struct Device: Sendable {
        var qualified = false
        var out = ContainerStream(direction: .out)
        var `in` = ContainerStream(direction: .in)
        var events = ContainerStream(direction: .in)
        /// Bytes asked for by IN submissions, by URB id.
        var requested: [UInt64: UInt32] = [:]
        var messages: [StampedMessage] = []
        var requestCount = 0
        var failure: RecordError?
    }

    /// One transfer event, whatever the capture format.
    private struct Transfer {
        var device: DeviceKey
        var urb: UInt64
        var isSubmission: Bool
        var isIn: Bool
        var type: USBMonPacket.TransferType
        /// For IN submissions: the bytes asked for, when the format records it (usbmon does, USBPcap does not).
        var requestedLength: UInt32?
        /// For IN completions and OUT submissions: the bytes transferred, when the format records it apart from
        /// the captured data (usbmon does).
        var transferredLength: UInt32?
        var data: [UInt8]
    }

    private var devices: [DeviceKey: Device] = [:]
    private var filler = ZeroFillBudget()
    private var order: [DeviceKey] = []
    /// Whether any USB packet was seen.
    private(set) var sawUSB = false

    /// Adds one captured packet of a USB link type.
    mutating func add(_ packet: CapturedPacket) throws(RecordError) {
        let transfer: Transfer?
        do {
            switch packet.linkType {
            case .usbLinuxMmapped, .usbLinux:
                let usbmon = try USBMonPacket(
                    packet.data[...], mmapped: packet.linkType == .usbLinuxMmapped, byteOrder: packet.byteOrder)
                transfer = Transfer(
                    device: DeviceKey(bus: usbmon.busNumber, address: UInt16(usbmon.deviceAddress)), urb: usbmon.id,
                    isSubmission: usbmon.eventType == .submission, isIn: usbmon.isIn, type: usbmon.transferType,
                    requestedLength: usbmon.length, transferredLength: usbmon.length, data: usbmon.data)
            case .usbPcap:
                transfer = try Self.usbPcapTransfer(packet.data)
            default:
                return
            }
        } catch {
            throw RecordError(.malformedPacket, at: packet.blockOffset, "\(packet.linkType) packet: \(error)")
        }
        sawUSB = true
        guard let transfer, transfer.type == .bulk || transfer.type == .interrupt else { return }
        if devices[transfer.device] == nil {
            devices[transfer.device] = Device()
            order.append(transfer.device)
        }
        // Take the device out of the dictionary while it changes, so its buffers are never copied.
        guard var device = devices.removeValue(forKey: transfer.device) else { return }
        defer { devices[transfer.device] = device }
        guard device.failure == nil else { return }
        do {
            try handle(transfer, &device, packet)
        } catch {
            device.failure = error
        }
    }

    /// The messages of the camera with the most requests, in capture order.
    ///
    /// - Throws: the framing error of the device that failed when no device yields a conversation;
    ///   ``RecordError/Code/noPTPTraffic`` when no device ever spoke PTP.
    func conversation() throws(RecordError) -> (device: DeviceKey, messages: [StampedMessage])? {
        let candidates = order.compactMap { key in devices[key].map { (key, $0) } }.filter { $0.1.qualified }
        if let best = candidates.filter({ $0.1.failure == nil }).max(by: { $0.1.requestCount < $1.1.requestCount }) {
            return (best.0, best.1.messages)
        }
        if let failure = candidates.first(where: { $0.1.failure != nil })?.1.failure { throw failure }
        return nil
    }

    private mutating func handle(_ transfer: Transfer, _ device: inout Device, _ packet: CapturedPacket)
        throws(RecordError)
    {
        let time = packet.timestampNanoseconds
        let blockOffset = packet.blockOffset
        var transfer = transfer
        // Data travels in OUT submissions and IN completions; a cut one is filled in (see ZeroFillBudget).
        let carriesData = transfer.isIn != transfer.isSubmission
        if carriesData, device.qualified, !transfer.data.isEmpty, let length = transfer.transferredLength,
            Int(length) > transfer.data.count
        {
            guard Int(length) <= CaptureLimits.maxBlockByteCount else {
                throw RecordError(.limitExceeded, at: blockOffset, "a transfer of \(length) bytes")
            }
            let captured = transfer.data.count
            transfer.data = try filler.fill(transfer.data, to: Int(length), at: blockOffset)
            device.messages.append(
                StampedMessage(
                    message: .note(
                        "the capture holds \(captured) of the \(length) bytes of the transfer at block offset "
                            + "0x\(String(blockOffset, radix: 16)); the rest is zeros"),
                    timestampNanoseconds: time, blockOffset: blockOffset))
        }
        if transfer.isSubmission {
            if transfer.isIn {
                // Completions normally follow soon; a capture full of orphans must not grow this without end.
                if device.requested.count > 4096 { device.requested = [:] }
                device.requested[transfer.urb] = transfer.requestedLength
                return
            }
            guard transfer.type == .bulk else { return }
            if !device.qualified {
                guard Self.isCommandContainer(transfer.data) else { return }
                device.qualified = true
            }
            // An OUT transfer ends short unless it filled whole packets; 512 is the high-speed packet size, and
            // a container's own length makes the exact value matter only for lengths of 0xFFFFFFFF.
            let endsShort = transfer.data.isEmpty || transfer.data.count % 512 != 0
            for message in try device.out.feed(transfer.data, endsTransfer: endsShort, at: blockOffset) {
                if case .request = message { device.requestCount += 1 }
                device.messages.append(
                    StampedMessage(message: message, timestampNanoseconds: time, blockOffset: blockOffset))
            }
            return
        }
        guard transfer.isIn, device.qualified else {
            device.requested[transfer.urb] = nil
            return
        }
        let asked = device.requested.removeValue(forKey: transfer.urb)
        let endsShort = asked.map { UInt32(transfer.data.count) < $0 } ?? (transfer.data.count % 512 != 0)
        let messages =
            transfer.type == .bulk
            ? try device.in.feed(transfer.data, endsTransfer: endsShort || transfer.data.isEmpty, at: blockOffset)
            // Events are stitched by the container's length: a camera whose interrupt endpoint has small packets
            // (8 bytes on Canon's) sends one event in several interrupt transfers, each full and none short.
            // Only an empty transfer (a zero-length packet) marks an end.
            : try device.events.feed(transfer.data, endsTransfer: transfer.data.isEmpty, at: blockOffset)
        for message in messages {
            device.messages.append(
                StampedMessage(message: message, timestampNanoseconds: time, blockOffset: blockOffset))
        }
    }

    /// Whether `bytes` is exactly one command container.
    private static func isCommandContainer(_ bytes: [UInt8]) -> Bool {
        guard (12...32).contains(bytes.count), bytes.count % 4 == 0 else { return false }
        var reader = WireReader(bytes, byteOrder: .little)
        guard let header = try? USBContainerHeader(from: &reader) else { return false }
        return header.type == .command && Int(header.length) == bytes.count
    }

    /// Decodes a USBPcap packet (always little-endian):
    ///
    /// | offset | size | field |
    /// |---|---|---|
    /// | 0 | 2 | headerLen (27, or 28 for control transfers) |
    /// | 2 | 8 | irpId |
    /// | 10 | 4 | status (USBD_STATUS) |
    /// | 14 | 2 | function (URB_FUNCTION_*) |
    /// | 16 | 1 | info: bit 0 set when the packet goes from the device's driver back up (a completion) |
    /// | 17 | 2 | bus |
    /// | 19 | 2 | device |
    /// | 21 | 1 | endpoint, bit 7 set for IN |
    /// | 22 | 1 | transfer: 0 isochronous, 1 interrupt, 2 control, 3 bulk |
    /// | 23 | 4 | dataLength |
    private static func usbPcapTransfer(_ bytes: [UInt8]) throws(WireError) -> Transfer? {
        var reader = WireReader(bytes, byteOrder: .little)
        let headerLength = Int(try reader.read(UInt16.self))
        let irp = try reader.read(UInt64.self)
        _ = try reader.read(UInt32.self)
        _ = try reader.read(UInt16.self)
        let info = try reader.read(UInt8.self)
        let bus = try reader.read(UInt16.self)
        let device = try reader.read(UInt16.self)
        let endpoint = try reader.read(UInt8.self)
        let transferType = try reader.read(UInt8.self)
        let dataLength = try reader.read(UInt32.self)
        guard headerLength >= 27, headerLength <= bytes.count else {
            throw WireError(.invalidValue, at: 0, "USBPcap header length \(headerLength) of \(bytes.count)")
        }
        guard let type = USBMonPacket.TransferType(rawValue: transferType) else { return nil }
        let data = Array(bytes[headerLength...].prefix(Int(dataLength)))
        return Transfer(
            device: DeviceKey(bus: bus, address: device), urb: irp, isSubmission: info & 1 == 0,
            isIn: endpoint & 0x80 != 0, type: type, requestedLength: nil, transferredLength: dataLength,
            data: data)
    }
}
