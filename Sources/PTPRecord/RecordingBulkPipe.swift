import PTP
import Synchronization

/// A ``PTP/USBBulkPipe`` that records every transfer through it to a ``PcapngRecorder`` as Linux usbmon events,
/// then passes it on to the pipe it wraps (libusb, or an in-memory pipe with an emulated or replayed camera).
///
/// Each call becomes the two events usbmon reports for a URB: a submission (`S`, with the data of OUT transfers
/// and the setup packet of control transfers) before the call, and a completion (`C`, with the data of IN
/// transfers and the status) after it. Timeouts, stalls and disconnects complete with the errno the kernel would
/// report (`-ENOENT` for a cancelled URB, `-EPIPE`, `-ESHUTDOWN`), keeping the bytes a timed-out read received.
/// ``start(wrapping:recorder:identity:)`` first records the device and configuration descriptors, so Wireshark
/// maps the endpoints to the Still Image interface.
///
/// A recording failure (disk full) fails the transfer with ``PTP/USBPipeError/Code/ioError`` and the
/// ``RecordError`` underneath: a recording that silently stops is worse than a session that stops.
public final class RecordingBulkPipe: USBBulkPipe, Sendable {
    /// The pipe underneath.
    public let base: any USBBulkPipe
    /// The recorder.
    public let recorder: PcapngRecorder
    /// The device as recorded.
    public let identity: USBDeviceIdentity

    private struct State: Sendable {
        var nextURB: UInt64 = 0xFFFF_8880_0000_0000
        var sniffer = DeviceInfoSniffer()
    }

    private let state = Mutex(State())

    private init(base: any USBBulkPipe, recorder: PcapngRecorder, identity: USBDeviceIdentity) {
        self.base = base
        self.recorder = recorder
        self.identity = identity
    }

    /// Wraps `base` and records the device's descriptors as GET_DESCRIPTOR control transfers.
    public static func start(
        wrapping base: any USBBulkPipe, recorder: PcapngRecorder, identity: USBDeviceIdentity = USBDeviceIdentity()
    ) async throws(RecordError) -> RecordingBulkPipe {
        let pipe = RecordingBulkPipe(base: base, recorder: recorder, identity: identity)
        let configuration = identity.configurationDescriptor(
            maxPacketSize: base.maxPacketSize, interruptMaxPacketSize: base.interruptMaxPacketSize)
        // GET_DESCRIPTOR (bRequest 6), device (wValue 0x0100) and configuration (0x0200), as USB 2.0 §9.4.3 has it.
        for (value, descriptor) in [(UInt16(0x0100), identity.deviceDescriptor), (0x0200, configuration)] {
            let setup: [UInt8] = [
                0x80, 6, UInt8(value & 0xFF), UInt8(value >> 8), 0, 0, UInt8(descriptor.count), 0,
            ]
            let urb = pipe.nextURB()
            try await recorder.record(
                pipe.packet(urb, .submission, .control, endpoint: 0x80, setup: setup, length: UInt32(descriptor.count)))
            try await recorder.record(
                pipe.packet(
                    urb, .completion, .control, endpoint: 0x80, length: UInt32(descriptor.count), data: descriptor))
        }
        return pipe
    }

    /// wMaxPacketSize of the bulk endpoints.
    public var maxPacketSize: Int { base.maxPacketSize }
    /// wMaxPacketSize of the interrupt endpoint.
    public var interruptMaxPacketSize: Int { base.interruptMaxPacketSize }

    // MARK: USBBulkPipe

    /// Records and performs a bulk OUT transfer.
    public func writeBulkOut(_ bytes: [UInt8], timeout: Duration) async throws(USBPipeError) {
        state.withLock { $0.sniffer.outgoing(bytes) }
        let urb = nextURB()
        let endpoint = identity.bulkOutAddress
        try await record(packet(urb, .submission, .bulk, endpoint: endpoint, length: UInt32(bytes.count), data: bytes))
        do {
            try await base.writeBulkOut(bytes, timeout: timeout)
        } catch {
            try await record(packet(urb, .completion, .bulk, endpoint: endpoint, status: Self.status(error), length: 0))
            throw error
        }
        try await record(packet(urb, .completion, .bulk, endpoint: endpoint, length: UInt32(bytes.count)))
    }

    /// Records and performs a bulk IN transfer.
    public func readBulkIn(maxLength: Int, timeout: Duration) async throws(USBPipeError) -> [UInt8] {
        try await readIn(.bulk, endpoint: identity.bulkInAddress, maxLength: maxLength) {
            () async throws(USBPipeError) in
            try await base.readBulkIn(maxLength: maxLength, timeout: timeout)
        }
    }

    /// Records and performs an interrupt IN transfer.
    public func readInterrupt(maxLength: Int, timeout: Duration) async throws(USBPipeError) -> [UInt8] {
        try await readIn(.interrupt, endpoint: identity.interruptAddress, maxLength: maxLength) {
            () async throws(USBPipeError) in
            try await base.readInterrupt(maxLength: maxLength, timeout: timeout)
        }
    }

    /// Records CLEAR_FEATURE(ENDPOINT_HALT) and clears the halt.
    public func clearHalt(_ endpoint: USBEndpoint) async throws(USBPipeError) {
        let address =
            switch endpoint {
            case .bulkIn: identity.bulkInAddress
            case .bulkOut: identity.bulkOutAddress
            case .interrupt: identity.interruptAddress
            }
        let setup: [UInt8] = [0x02, 1, 0, 0, address, 0, 0, 0]
        _ = try await control(setup: setup, data: []) { () async throws(USBPipeError) in
            try await base.clearHalt(endpoint)
            return []
        }
    }

    /// Records and sends a Still Image class request.
    public func classRequest(
        _ request: StillImageClassRequest, data: [UInt8], maxLength: Int, timeout: Duration
    ) async throws(USBPipeError) -> [UInt8] {
        let length = request.isDeviceToHost ? maxLength : data.count
        // bmRequestType: class, interface recipient, with the direction bit for IN requests.
        let setup: [UInt8] = [
            request.isDeviceToHost ? 0xA1 : 0x21, request.rawValue, 0, 0, 0, 0, UInt8(length & 0xFF),
            UInt8((length >> 8) & 0xFF),
        ]
        return try await control(setup: setup, data: request.isDeviceToHost ? [] : data) {
            () async throws(USBPipeError) in
            try await base.classRequest(request, data: data, maxLength: maxLength, timeout: timeout)
        }
    }

    // MARK: Plumbing

    private func readIn(
        _ type: USBMonPacket.TransferType, endpoint: UInt8, maxLength: Int,
        _ body: () async throws(USBPipeError) -> [UInt8]
    ) async throws(USBPipeError) -> [UInt8] {
        let urb = nextURB()
        try await record(packet(urb, .submission, type, endpoint: endpoint, length: UInt32(clamping: maxLength)))
        let bytes: [UInt8]
        do {
            bytes = try await body()
        } catch {
            try await record(
                packet(
                    urb, .completion, type, endpoint: endpoint, status: Self.status(error),
                    length: UInt32(error.partialData.count), data: error.partialData))
            throw error
        }
        if type == .bulk, let model = state.withLock({ $0.sniffer.incoming(bytes) }) {
            try? await recorder.setCameraModel(model)
        }
        try await record(packet(urb, .completion, type, endpoint: endpoint, length: UInt32(bytes.count), data: bytes))
        return bytes
    }

    private func control(
        setup: [UInt8], data: [UInt8], _ body: () async throws(USBPipeError) -> [UInt8]
    ) async throws(USBPipeError) -> [UInt8] {
        let urb = nextURB()
        let direction: UInt8 = setup[0] & 0x80
        let length = UInt32(setup[6]) | UInt32(setup[7]) << 8
        try await record(
            packet(urb, .submission, .control, endpoint: direction, setup: setup, length: length, data: data))
        let reply: [UInt8]
        do {
            reply = try await body()
        } catch {
            try await record(
                packet(urb, .completion, .control, endpoint: direction, status: Self.status(error), length: 0))
            throw error
        }
        try await record(
            packet(urb, .completion, .control, endpoint: direction, length: UInt32(reply.count), data: reply))
        return reply
    }

    private func nextURB() -> UInt64 {
        state.withLock { state in
            defer { state.nextURB &+= 0x40 }
            return state.nextURB
        }
    }

    private func packet(
        _ urb: UInt64, _ event: USBMonPacket.EventType, _ type: USBMonPacket.TransferType, endpoint: UInt8,
        setup: [UInt8]? = nil, status: Int32? = nil, length: UInt32, data: [UInt8] = []
    ) -> USBMonPacket {
        let isIn = endpoint & 0x80 != 0
        // usbmon's flag_data: '<' for an IN submission and '>' for an OUT completion (no data by nature).
        let flag: UInt8? =
            data.isEmpty ? (event == .submission && isIn ? 0x3C : (event == .completion && !isIn ? 0x3E : nil)) : nil
        return USBMonPacket(
            id: urb, eventType: event, transferType: type, endpoint: endpoint, deviceAddress: identity.deviceAddress,
            busNumber: identity.busNumber, setup: setup, dataFlag: flag,
            status: status ?? (event == .submission ? USBMonPacket.statusInProgress : 0), length: length,
            interval: type == .interrupt ? 7 : 0, transferFlags: isIn ? USBMonPacket.directionInFlag : 0, data: data)
    }

    private func record(_ packet: USBMonPacket) async throws(USBPipeError) {
        do {
            try await recorder.record(packet)
        } catch {
            throw USBPipeError(.ioError, underlyingError: error, "recording to \(recorder.path)")
        }
    }

    /// The URB status the kernel reports for a failure: `-ENOENT` (cancelled after a timeout), `-EPIPE` (stall),
    /// `-ESHUTDOWN` (device gone), `-EOVERFLOW`, `-EPROTO` (anything else).
    private static func status(_ error: USBPipeError) -> Int32 {
        switch error.code {
        case .timeout, .cancelled: -2
        case .stall: -32
        case .disconnected: -108
        case .overflow: -75
        default: -71
        }
    }
}
