/// A ``USBBulkPipe`` in memory: the host end of a simulated PTP interface, with a ``Device`` end for the camera
/// side (``USBDeviceSide``, the emulator, tests).
///
/// It reproduces the USB behaviour the transport must handle: packets of ``maxPacketSize``, transfers that end at
/// a short packet, zero-length packets, transfers that span many packets, timeouts that keep the bytes already
/// received, stalls that last until cleared, and disconnects. Each direction is bounded (``capacity`` bytes), so
/// a device streaming a large object waits for the host to read, as a real endpoint does.
public final class InMemoryBulkPipe: USBBulkPipe, Sendable {
    /// wMaxPacketSize of the bulk endpoints.
    public let maxPacketSize: Int
    /// wMaxPacketSize of the interrupt endpoint.
    public let interruptMaxPacketSize: Int
    /// Bytes each direction queues before the writer waits.
    public let capacity: Int

    let bulkOut: InMemoryChannel
    let bulkIn: InMemoryChannel
    let interrupt: InMemoryChannel
    private let control = ControlEndpoint()

    /// Creates a pipe; 512-byte packets are USB 2.0 high speed.
    public init(maxPacketSize: Int = 512, interruptMaxPacketSize: Int = 64, capacity: Int = 4 * 1024 * 1024) {
        precondition(maxPacketSize > 0 && interruptMaxPacketSize > 0, "packet sizes must be positive")
        self.maxPacketSize = maxPacketSize
        self.interruptMaxPacketSize = interruptMaxPacketSize
        self.capacity = capacity
        bulkOut = InMemoryChannel(packetSize: maxPacketSize, capacity: capacity)
        bulkIn = InMemoryChannel(packetSize: maxPacketSize, capacity: capacity)
        interrupt = InMemoryChannel(packetSize: interruptMaxPacketSize, capacity: capacity)
    }

    /// The camera's end of the pipe.
    public var device: Device { Device(pipe: self) }

    // MARK: USBBulkPipe (the host end)

    /// Writes one bulk OUT transfer.
    public func writeBulkOut(_ bytes: [UInt8], timeout: Duration) async throws(USBPipeError) {
        try await Self.map("bulk OUT") { () async throws(InMemoryChannel.Failure) in
            try await bulkOut.write(bytes, deadline: .now + timeout)
        }
    }

    /// Reads one bulk IN transfer.
    public func readBulkIn(maxLength: Int, timeout: Duration) async throws(USBPipeError) -> [UInt8] {
        try await Self.map("bulk IN") { () async throws(InMemoryChannel.Failure) in
            try await bulkIn.readTransfer(maxLength: maxLength, deadline: .now + timeout)
        }
    }

    /// Reads one interrupt IN transfer.
    public func readInterrupt(maxLength: Int, timeout: Duration) async throws(USBPipeError) -> [UInt8] {
        try await Self.map("interrupt IN") { () async throws(InMemoryChannel.Failure) in
            try await interrupt.readTransfer(maxLength: maxLength, deadline: .now + timeout)
        }
    }

    /// Clears a halt.
    public func clearHalt(_ endpoint: USBEndpoint) async throws(USBPipeError) {
        if await control.isDisconnected { throw USBPipeError(.disconnected, "clear halt") }
        await channel(endpoint).clearHalt()
    }

    /// Sends a class request to the device end's handler.
    public func classRequest(
        _ request: StillImageClassRequest, data: [UInt8], maxLength: Int, timeout: Duration
    ) async throws(USBPipeError) -> [UInt8] {
        if await control.isDisconnected { throw USBPipeError(.disconnected, "control \(request)") }
        guard let handler = await control.handler else {
            throw USBPipeError(.stall, "control \(request): no device attached")
        }
        switch await handler(request, data) {
        case .stall: throw USBPipeError(.stall, "control \(request)")
        case .data(let reply): return Array(reply.prefix(maxLength))
        }
    }

    /// Breaks the link in both directions for good, as a cable pull does.
    public func disconnect() async {
        await control.disconnect()
        await bulkOut.disconnect()
        await bulkIn.disconnect()
        await interrupt.disconnect()
    }

    private func channel(_ endpoint: USBEndpoint) -> InMemoryChannel {
        switch endpoint {
        case .bulkOut: bulkOut
        case .bulkIn: bulkIn
        case .interrupt: interrupt
        }
    }

    private static func map<T>(
        _ what: String, _ body: () async throws(InMemoryChannel.Failure) -> T
    ) async throws(USBPipeError) -> T {
        do {
            return try await body()
        } catch {
            switch error {
            case .timeout(let partial): throw USBPipeError(.timeout, partialData: partial, what)
            case .stalled(let partial): throw USBPipeError(.stall, partialData: partial, what)
            case .closed(let partial), .disconnected(let partial):
                throw USBPipeError(.disconnected, partialData: partial, what)
            case .cancelled(let partial): throw USBPipeError(.cancelled, partialData: partial, what)
            }
        }
    }

    /// The camera's end of an ``InMemoryBulkPipe``: it reads bulk OUT and writes bulk IN and interrupt IN.
    public struct Device: USBDeviceEndpoints {
        let pipe: InMemoryBulkPipe

        /// wMaxPacketSize of the bulk endpoints.
        public var maxPacketSize: Int { pipe.maxPacketSize }
        /// wMaxPacketSize of the interrupt endpoint.
        public var interruptMaxPacketSize: Int { pipe.interruptMaxPacketSize }

        /// Reads one bulk OUT transfer (what the host wrote, up to a short packet); `timeout` `nil` waits forever.
        public func readBulkOut(maxLength: Int, timeout: Duration?) async throws(USBPipeError) -> [UInt8] {
            try await InMemoryBulkPipe.map("device bulk OUT") { () async throws(InMemoryChannel.Failure) in
                try await pipe.bulkOut.readTransfer(maxLength: maxLength, deadline: timeout.map { .now + $0 })
            }
        }

        /// Writes packets to bulk IN: a multiple of ``maxPacketSize`` continues the transfer, anything else ends
        /// it with a short packet, an empty array is a zero-length packet. Waits while the host is behind.
        public func writeBulkIn(_ bytes: [UInt8]) async throws(USBPipeError) {
            try await InMemoryBulkPipe.map("device bulk IN") { () async throws(InMemoryChannel.Failure) in
                try await pipe.bulkIn.write(bytes, deadline: nil)
            }
        }

        /// Writes packets to interrupt IN.
        public func writeInterrupt(_ bytes: [UInt8]) async throws(USBPipeError) {
            try await InMemoryBulkPipe.map("device interrupt IN") { () async throws(InMemoryChannel.Failure) in
                try await pipe.interrupt.write(bytes, deadline: nil)
            }
        }

        /// Halts an endpoint until the host clears it.
        public func stall(_ endpoint: USBEndpoint) async { await pipe.channel(endpoint).stall() }

        /// Whether an endpoint is halted.
        public func isStalled(_ endpoint: USBEndpoint) async -> Bool { await pipe.channel(endpoint).isStalled }

        /// Drops everything queued on bulk IN that the host has not read (after a cancel).
        public func discardBulkIn() async { await pipe.bulkIn.discardAll() }

        /// Drops everything queued on bulk OUT that the device has not read.
        public func discardBulkOut() async { await pipe.bulkOut.discardAll() }

        /// Installs the handler for class requests.
        public func setControlHandler(_ handler: USBControlHandler?) async { await pipe.control.setHandler(handler) }

        /// Breaks the link for good.
        public func disconnect() async { await pipe.disconnect() }
    }
}

/// The control endpoint's state: the device's class-request handler and whether the device is gone.
private actor ControlEndpoint {
    var handler: USBControlHandler?
    var isDisconnected = false

    func setHandler(_ handler: USBControlHandler?) { self.handler = handler }
    func disconnect() { isDisconnected = true }
}
