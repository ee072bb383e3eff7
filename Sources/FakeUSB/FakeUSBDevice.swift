import CFakeUSB
import PTP
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The camera's end of a fake USB device: ``PTP/USBDeviceEndpoints`` over the C device model, so that
/// ``PTP/USBDeviceSide`` serves a ``PTP/PTPResponder`` to real libusb programs.
///
/// Bulk OUT reads end at a short or zero-length packet, IN writes are cut into packets of the endpoint's
/// wMaxPacketSize (a write that is not a whole number of packets ends the host's transfer), and writers wait while
/// the host has not read what is queued. Class requests from the host are answered by the handler
/// ``PTP/USBDeviceSide`` installs, on a task of their own, so the umockdev worker thread never waits for Swift.
public final class FakeUSBDevice: USBDeviceEndpoints, @unchecked Sendable {
    /// wMaxPacketSize of bulk IN 0x81 and bulk OUT 0x02.
    public let maxPacketSize: Int
    /// wMaxPacketSize of interrupt IN 0x83.
    public let interruptMaxPacketSize: Int
    /// The node libusb programs open, `/dev/bus/usb/BBB/DDD`.
    public let nodePath: String

    let signal: FakeUSBSignal
    /// The C device's pointer may be used from any thread (the C model locks itself).
    private struct State: @unchecked Sendable {
        var pointer: OpaquePointer?
        var controlHandler: USBControlHandler?
        var controlPump: Task<Void, Never>?
    }

    private let state: Mutex<State>

    init(pointer: OpaquePointer, signal: FakeUSBSignal, maxPacketSize: Int, interruptMaxPacketSize: Int) {
        state = Mutex(State(pointer: pointer))
        self.signal = signal
        self.maxPacketSize = maxPacketSize
        self.interruptMaxPacketSize = interruptMaxPacketSize
        nodePath = String(cString: fakeusb_device_node(pointer))
    }

    /// Calls `body` with the C device while the testbed exists (`nil` once it is gone), holding the lock that
    /// ``invalidate()`` takes: the testbed frees the device once that returns, so a call that had already read the
    /// pointer must not still be running then. The C calls never block, so holding the lock costs little.
    private func withDevice<Value: Sendable>(_ body: (OpaquePointer) -> Value) -> Value? {
        state.withLock { state in state.pointer.map(body) }
    }

    /// Forgets the C device (its testbed is about to free it) and waits for the class-request pump to end: no C
    /// call on the device runs once this returns, and none starts later.
    func invalidate() async {
        let pump = state.withLock { state in
            state.pointer = nil
            defer { state.controlPump = nil }
            return state.controlPump
        }
        signal.detach()
        pump?.cancel()
        signal.fire()
        // A handler the pump is awaiting finishes; its answer is then dropped (the device is gone).
        await pump?.value
    }

    // MARK: USBDeviceEndpoints

    /// Reads one bulk OUT transfer: up to `maxLength` bytes (whole packets), ending early at a short packet.
    public func readBulkOut(maxLength: Int, timeout: Duration?) async throws(USBPipeError) -> [UInt8] {
        let limit = max(maxPacketSize, maxLength - maxLength % maxPacketSize)
        let deadline = timeout.map { ContinuousClock.now + $0 }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: limit)
        while true {
            let generation = signal.generation
            var ended: Int32 = 0
            let wanted = limit - received.count
            let read = chunk.withUnsafeMutableBufferPointer { buffer in
                withDevice { fakeusb_read_out($0, buffer.baseAddress, wanted, &ended) }
            }
            guard let result = read else {
                throw USBPipeError(.disconnected, partialData: received, "fake device removed")
            }
            if result >= 0 {
                received.append(contentsOf: chunk.prefix(Int(result)))
                if ended != 0 || received.count == limit { return received }
                continue
            }
            switch Int32(-result) {
            case EAGAIN: break
            case EPIPE: throw USBPipeError(.stall, partialData: received, "bulk OUT halted")
            default: throw USBPipeError(.disconnected, partialData: received, "bulk OUT: cable pulled")
            }
            if Task.isCancelled { throw USBPipeError(.cancelled, partialData: received, "bulk OUT") }
            if let deadline, deadline <= .now { throw USBPipeError(.timeout, partialData: received, "bulk OUT") }
            await signal.wait(since: generation, until: deadline)
        }
    }

    /// Queues packets on bulk IN, waiting while the host is behind.
    public func writeBulkIn(_ bytes: [UInt8]) async throws(USBPipeError) {
        try await write(bytes, endpoint: 0x81)
    }

    /// Queues packets on interrupt IN.
    public func writeInterrupt(_ bytes: [UInt8]) async throws(USBPipeError) {
        try await write(bytes, endpoint: 0x83)
    }

    /// Halts an endpoint until the host clears it (`libusb_clear_halt`).
    public func stall(_ endpoint: USBEndpoint) async {
        withDevice { fakeusb_halt($0, UInt8(endpoint.conventionalAddress)) }
    }

    /// Whether an endpoint is halted.
    public func isStalled(_ endpoint: USBEndpoint) async -> Bool {
        withDevice { fakeusb_is_halted($0, UInt8(endpoint.conventionalAddress)) != 0 } ?? false
    }

    /// Drops bulk IN data the host has not read.
    public func discardBulkIn() async {
        withDevice { fakeusb_discard($0, 0x81) }
    }

    /// Drops bulk OUT data the device has not read.
    public func discardBulkOut() async {
        withDevice { fakeusb_discard($0, 0x02) }
    }

    /// Installs the class-request handler and starts answering the host's requests with it.
    public func setControlHandler(_ handler: USBControlHandler?) async {
        state.withLock { state in
            state.controlHandler = handler
            if handler != nil && state.controlPump == nil && state.pointer != nil {
                state.controlPump = Task(executorPreference: FakeUSBExecutor.shared) { [weak self] in
                    await self?.serveControlRequests()
                }
            }
        }
        signal.fire()
    }

    /// Pulls the cable: in-flight transfers fail with `LIBUSB_TRANSFER_NO_DEVICE`, everything after with
    /// `LIBUSB_ERROR_NO_DEVICE`.
    public func disconnect() async {
        withDevice { fakeusb_unplug($0) }
    }

    /// Pulls the cable and takes the device off the bus: libusb no longer lists it, and its address may be used by
    /// a device added later (a camera switched off, or asleep).
    public func removeFromBus() async {
        withDevice { fakeusb_device_remove($0) }
    }

    // MARK: Faults and counters

    /// Makes claims of the interface fail with EBUSY (`LIBUSB_ERROR_BUSY`), as when another program holds the
    /// camera; `false` restores them.
    public func setHeldByAnotherProgram(_ held: Bool) {
        withDevice { fakeusb_set_claim_error($0, held ? EBUSY : 0) }
    }

    /// Sets the device node's permission bits (0 denies every user but root with CAP_DAC_OVERRIDE).
    public func setNodeMode(_ mode: UInt32) throws(FakeUSBError) {
        guard let result = withDevice({ fakeusb_set_node_mode($0, mode) }) else {
            throw FakeUSBError(.setupFailed, "fake device removed")
        }
        if result != 0 { throw FakeUSBError(.setupFailed, "chmod \(nodePath): \(String(cString: strerror(-result)))") }
    }

    /// What the host did on the wire so far.
    public var statistics: FakeUSBStatistics {
        let stats = withDevice { device in
            var stats = fakeusb_stats()
            fakeusb_get_stats(device, &stats)
            return stats
        }
        return FakeUSBStatistics(stats ?? fakeusb_stats())
    }

    // MARK: Plumbing

    private func write(_ bytes: [UInt8], endpoint: UInt8) async throws(USBPipeError) {
        while true {
            let generation = signal.generation
            let written = bytes.withUnsafeBufferPointer { buffer in
                withDevice { fakeusb_write_in($0, endpoint, buffer.baseAddress, buffer.count) }
            }
            guard let result = written else { throw USBPipeError(.disconnected, "fake device removed") }
            switch -result {
            case 0: return
            case EAGAIN: break
            case EPIPE: throw USBPipeError(.stall, "\(hexByte(endpoint)) halted")
            case ENODEV: throw USBPipeError(.disconnected, "\(hexByte(endpoint)): cable pulled")
            default: throw USBPipeError(.ioError, "\(hexByte(endpoint)): error \(-result)")
            }
            if Task.isCancelled { throw USBPipeError(.cancelled, "\(hexByte(endpoint))") }
            await signal.wait(since: generation, until: nil)
        }
    }

    /// Answers class requests until the task is cancelled or the device goes away. The device is looked up again
    /// after each await: the handler may still be running when the testbed goes (``invalidate()`` waits for it).
    private func serveControlRequests() async {
        while !Task.isCancelled {
            let generation = signal.generation
            while true {
                var request = fakeusb_control_request()
                guard let taken = withDevice({ fakeusb_next_control($0, &request) }) else { return }
                guard taken != 0 else { break }
                let handler = state.withLock { $0.controlHandler }
                let data = withUnsafeBytes(of: request.data) { Array($0.prefix(request.data_length)) }
                let reply = await handler?(StillImageClassRequest(rawValue: request.request), data) ?? .stall
                let id = request.id
                let answered: Void?
                switch reply {
                case .data(let bytes):
                    answered = bytes.withUnsafeBufferPointer { buffer in
                        withDevice { fakeusb_answer_control($0, id, 0, buffer.baseAddress, buffer.count) }
                    }
                case .stall:
                    answered = withDevice { fakeusb_answer_control($0, id, -EPIPE, nil, 0) }
                }
                if answered == nil { return }
            }
            await signal.wait(since: generation, until: nil)
        }
    }
}

/// `0x81`.
func hexByte(_ value: UInt8) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return "0x" + (digits.count < 2 ? "0" : "") + digits
}
