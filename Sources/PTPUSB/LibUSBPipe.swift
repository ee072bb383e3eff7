import CLibUSB
import Logging
import PTP
import Synchronization

/// ``PTP/USBBulkPipe`` over libusb-1.0: the claimed PTP interface of one camera.
///
/// Every blocking libusb call runs on a thread the pipe owns, never on Swift's cooperative pool: bulk transfers on
/// one, interrupt reads on another (an event read waits beside a long download), control requests and halts on a
/// third (a Cancel request can go out while a read is pending). Callers are resumed through continuations, and a
/// cancelled task cancels its transfer (`libusb_cancel_transfer`).
///
/// ```swift
/// let context = try await LibUSBContext.make()
/// let camera = try USBCameraSelector.onlyCamera.select(from: try await context.cameras())
/// let pipe = try await LibUSBPipe.open(camera, in: context)
/// let session = PTPSession(transport: PTPUSBTransport(pipe: pipe))
/// …
/// await pipe.close()
/// ```
public final class LibUSBPipe: USBBulkPipe, Sendable {
    /// The camera this pipe talks to.
    public let camera: USBCameraInfo
    /// wMaxPacketSize of bulk IN.
    public let maxPacketSize: Int
    /// wMaxPacketSize of interrupt IN.
    public let interruptMaxPacketSize: Int

    let context: LibUSBContext
    let handle: LibUSBPointer
    private let logger: Logger
    private let bulkThread = LibUSBIOThread(name: "rawcap.usb.bulk")
    private let interruptThread = LibUSBIOThread(name: "rawcap.usb.interrupt")
    private let controlThread = LibUSBIOThread(name: "rawcap.usb.control")
    private let state = PipeState()

    private init(camera: USBCameraInfo, context: LibUSBContext, handle: LibUSBPointer, logger: Logger) {
        self.camera = camera
        self.context = context
        self.handle = handle
        self.logger = logger
        maxPacketSize = camera.interface.bulkIn.maxPacketSize
        interruptMaxPacketSize = camera.interface.interruptIn.maxPacketSize
    }

    /// Opens `camera`: detaches a kernel driver from its interface (libusb's auto-detach), claims the interface,
    /// and selects its alternate setting.
    ///
    /// - Throws: ``USBCameraError``: ``USBCameraError/Code/permissionDenied``, ``USBCameraError/Code/busy``,
    ///   ``USBCameraError/Code/disconnected`` (also when the camera is no longer on the bus), or
    ///   ``USBCameraError/Code/openFailed``.
    public static func open(
        _ camera: USBCameraInfo, in context: LibUSBContext, logger: Logger = Logger(label: "rawcap.usb")
    ) async throws(USBCameraError) -> LibUSBPipe {
        let contextPointer = context.pointer
        let result = await context.thread.run { Self.openHandle(camera, contextPointer.raw, logger: logger) }
        guard let result else { throw USBCameraError(.openFailed, camera: camera) }
        let handle = try result.get()
        logger.debug(
            "opened \(camera): interface \(camera.interface.number) alt \(camera.interface.alternateSetting), \(camera.interface.bulkIn), \(camera.interface.bulkOut), \(camera.interface.interruptIn)"
        )
        return LibUSBPipe(camera: camera, context: context, handle: handle, logger: logger)
    }

    deinit {
        if state.close() != nil {
            libusb_release_interface(handle.raw, Int32(camera.interface.number))
            libusb_close(handle.raw)
        }
        bulkThread.stop()
        interruptThread.stop()
        controlThread.stop()
    }

    /// Releases the interface and closes the device; transfers still running are cancelled first. Later calls
    /// fail with ``PTP/USBPipeError/Code/ioError``.
    public func close() async {
        guard let running = state.close() else { return }
        for cancellation in running { cancellation.cancel() }
        // Each thread runs its jobs in order: once these return, no transfer is in flight.
        _ = await bulkThread.run {}
        _ = await interruptThread.run {}
        let handle = self.handle
        let number = Int32(camera.interface.number)
        _ = await controlThread.run {
            libusb_release_interface(handle.raw, number)
            libusb_close(handle.raw)
        }
        bulkThread.stop()
        interruptThread.stop()
        controlThread.stop()
        logger.debug("closed \(camera.selector)")
    }

    // MARK: USBBulkPipe

    /// Writes one bulk OUT transfer; an empty buffer sends a zero-length packet. A short write is an error.
    public func writeBulkOut(_ bytes: [UInt8], timeout: Duration) async throws(USBPipeError) {
        let transfer = makeTransfer(camera.interface.bulkOut.address, LIBUSB_TRANSFER_TYPE_BULK)
        let outcome = try await perform(on: bulkThread, "bulk OUT") { cancellation in
            bytes.withUnsafeBufferPointer { buffer in
                // libusb never writes to an OUT buffer; a zero-length transfer still wants a valid pointer.
                var spare: UInt8 = 0
                guard let base = buffer.baseAddress else {
                    return transfer.run(buffer: &spare, length: 0, timeout: timeout, cancellation: cancellation)
                }
                return transfer.run(
                    buffer: UnsafeMutablePointer(mutating: base), length: buffer.count, timeout: timeout,
                    cancellation: cancellation)
            }
        }
        if let error = outcome.error { throw USBPipeError(error) }
        guard outcome.actualLength == bytes.count else {
            throw USBPipeError(.ioError, "bulk OUT: short write, \(outcome.actualLength) of \(bytes.count) bytes")
        }
    }

    /// Reads one bulk IN transfer of up to `maxLength` bytes (rounded down to whole packets, at least one).
    public func readBulkIn(maxLength: Int, timeout: Duration) async throws(USBPipeError) -> [UInt8] {
        try await read(camera.interface.bulkIn, LIBUSB_TRANSFER_TYPE_BULK, on: bulkThread, maxLength, timeout)
    }

    /// Reads one interrupt IN transfer of up to `maxLength` bytes (rounded down to whole packets, at least one).
    public func readInterrupt(maxLength: Int, timeout: Duration) async throws(USBPipeError) -> [UInt8] {
        try await read(
            camera.interface.interruptIn, LIBUSB_TRANSFER_TYPE_INTERRUPT, on: interruptThread, maxLength, timeout)
    }

    /// Clears a halt (`libusb_clear_halt`).
    public func clearHalt(_ endpoint: USBEndpoint) async throws(USBPipeError) {
        let address =
            switch endpoint {
            case .bulkIn: camera.interface.bulkIn.address
            case .bulkOut: camera.interface.bulkOut.address
            case .interrupt: camera.interface.interruptIn.address
            }
        let handle = self.handle
        let status = try await perform(on: controlThread, "clear halt") { _ in libusb_clear_halt(handle.raw, address) }
        guard status == 0 else {
            throw USBPipeError(LibUSBError(returnValue: status, function: "libusb_clear_halt", hexByte(address)))
        }
        logger.debug("cleared halt on \(hexByte(address))")
    }

    /// Sends a Still Image class request: bmRequestType class/interface (IN for Get Device Status and Get Extended
    /// Event Data), wValue 0, wIndex the interface number (`libusb_control_transfer`).
    public func classRequest(
        _ request: StillImageClassRequest, data: [UInt8], maxLength: Int, timeout: Duration
    ) async throws(USBPipeError) -> [UInt8] {
        let isIn = request.isDeviceToHost
        let requestType =
            UInt8(LIBUSB_REQUEST_TYPE_CLASS.rawValue) | UInt8(LIBUSB_RECIPIENT_INTERFACE.rawValue)
            | (isIn ? UInt8(LIBUSB_ENDPOINT_IN.rawValue) : 0)
        let index = UInt16(camera.interface.number)
        let length = isIn ? min(max(0, maxLength), Int(UInt16.max)) : data.count
        guard length <= Int(UInt16.max) else { throw USBPipeError(.ioError, "\(request): \(length) bytes") }
        let handle = self.handle
        let milliseconds = LibUSBTransfer.milliseconds(timeout)
        let (status, reply) = try await perform(on: controlThread, "control \(request)") { _ in
            var buffer = isIn ? [UInt8](repeating: 0, count: max(1, length)) : data + [0]
            let status = libusb_control_transfer(
                handle.raw, requestType, request.rawValue, 0, index, &buffer, UInt16(length), milliseconds)
            return (status, status > 0 && isIn ? Array(buffer.prefix(Int(status))) : [])
        }
        guard status >= 0 else {
            throw USBPipeError(LibUSBError(returnValue: status, function: "libusb_control_transfer", "\(request)"))
        }
        return reply
    }

    // MARK: Plumbing

    private func makeTransfer(_ endpoint: UInt8, _ type: libusb_transfer_type) -> LibUSBTransfer {
        LibUSBTransfer(context: context.pointer.raw, handle: handle.raw, endpoint: endpoint, type: UInt8(type.rawValue))
    }

    private func read(
        _ endpoint: USBEndpointDescription, _ type: libusb_transfer_type, on thread: LibUSBIOThread, _ maxLength: Int,
        _ timeout: Duration
    ) async throws(USBPipeError) -> [UInt8] {
        let packet = max(1, endpoint.maxPacketSize)
        // Whole packets only: a buffer that ends inside a packet makes a full packet an overflow.
        let length = max(packet, maxLength - maxLength % packet)
        let transfer = makeTransfer(endpoint.address, type)
        let (bytes, error) = try await perform(on: thread, "\(endpoint)") { cancellation in
            var error: LibUSBError?
            let bytes = [UInt8](unsafeUninitializedCapacity: length) { buffer, initialized in
                guard let base = buffer.baseAddress else { return }
                let outcome = transfer.run(buffer: base, length: length, timeout: timeout, cancellation: cancellation)
                initialized = min(outcome.actualLength, length)
                error = outcome.error
            }
            return (bytes, error)
        }
        if let error { throw USBPipeError(error, partialData: bytes) }
        return bytes
    }

    /// Runs `body` on `thread`, cancelling its transfer when the calling task is cancelled.
    private func perform<T: Sendable>(
        on thread: LibUSBIOThread, _ what: String, _ body: @escaping @Sendable (LibUSBTransfer.Cancellation) -> T
    ) async throws(USBPipeError) -> T {
        let cancellation = LibUSBTransfer.Cancellation()
        guard state.register(cancellation) else { throw USBPipeError(.ioError, "\(what): the pipe is closed") }
        defer { state.unregister(cancellation) }
        let result = await withTaskCancellationHandler {
            await thread.run { body(cancellation) }
        } onCancel: {
            cancellation.cancel()
        }
        guard let result else { throw USBPipeError(.ioError, "\(what): the pipe is closed") }
        return result
    }

    /// Opens, detaches, claims and selects the alternate setting (on the context's thread).
    private static func openHandle(
        _ camera: USBCameraInfo, _ context: OpaquePointer, logger: Logger
    ) -> Result<LibUSBPointer, USBCameraError> {
        var list: UnsafeMutablePointer<OpaquePointer?>?
        let count = libusb_get_device_list(context, &list)
        guard count >= 0, let list else {
            let error = LibUSBError(returnValue: Int32(clamping: count), function: "libusb_get_device_list")
            return .failure(USBCameraError(.openFailed, camera: camera, underlyingError: error))
        }
        defer { libusb_free_device_list(list, 1) }
        let device = (0..<count).lazy.compactMap { list[$0] }.first {
            libusb_get_bus_number($0) == camera.busNumber && libusb_get_device_address($0) == camera.deviceAddress
        }
        guard let device else { return .failure(USBCameraError(.disconnected, camera: camera)) }

        var opened: OpaquePointer?
        let status = libusb_open(device, &opened)
        guard status == 0, let handle = opened else {
            let error = LibUSBError(returnValue: status, function: "libusb_open", camera.devicePath)
            let code: USBCameraError.Code =
                switch error.code {
                case .access: .permissionDenied
                case .noDevice: .disconnected
                case .busy: .busy
                default: .openFailed
                }
            return .failure(USBCameraError(code, camera: camera, underlyingError: error))
        }
        let number = Int32(camera.interface.number)
        func fail(_ status: Int32, _ function: String) -> Result<LibUSBPointer, USBCameraError> {
            libusb_close(handle)
            let error = LibUSBError(returnValue: status, function: function, "interface \(number)")
            let code: USBCameraError.Code =
                switch error.code {
                case .busy: .busy
                case .noDevice: .disconnected
                case .access: .permissionDenied
                default: .openFailed
                }
            return .failure(USBCameraError(code, camera: camera, underlyingError: error))
        }
        // Auto-detach makes the claim detach a kernel driver and reattach it on release. Where libusb cannot do
        // that, detach by hand.
        if libusb_set_auto_detach_kernel_driver(handle, 1) != 0, libusb_kernel_driver_active(handle, number) == 1 {
            let detached = libusb_detach_kernel_driver(handle, number)
            if detached != 0 { return fail(detached, "libusb_detach_kernel_driver") }
        }
        let claimed = libusb_claim_interface(handle, number)
        if claimed != 0 { return fail(claimed, "libusb_claim_interface") }
        let alternate = Int32(camera.interface.alternateSetting)
        let selected = libusb_set_interface_alt_setting(handle, number, alternate)
        if selected != 0 {
            // Some cameras stall SET_INTERFACE when they have a single setting; setting 0 is already active then.
            if alternate != 0 {
                libusb_release_interface(handle, number)
                return fail(selected, "libusb_set_interface_alt_setting")
            }
            logger.debug("SET_INTERFACE \(number)/0 failed (\(LibUSBError(returnValue: selected, function: "")))")
        }
        return .success(LibUSBPointer(handle))
    }
}

/// Whether the pipe is open, and the transfers in flight (so that ``LibUSBPipe/close()`` can cancel them).
private final class PipeState: Sendable {
    private struct State {
        var closed = false
        var running: [ObjectIdentifier: LibUSBTransfer.Cancellation] = [:]
    }

    private let state = Mutex(State())

    /// Records a transfer about to start; `false` when the pipe is closed.
    func register(_ cancellation: LibUSBTransfer.Cancellation) -> Bool {
        state.withLock { state in
            guard !state.closed else { return false }
            state.running[ObjectIdentifier(cancellation)] = cancellation
            return true
        }
    }

    func unregister(_ cancellation: LibUSBTransfer.Cancellation) {
        state.withLock { $0.running[ObjectIdentifier(cancellation)] = nil }
    }

    /// Marks the pipe closed; returns the transfers in flight, or `nil` if it was closed already.
    func close() -> [LibUSBTransfer.Cancellation]? {
        state.withLock { state in
            guard !state.closed else { return nil }
            state.closed = true
            return Array(state.running.values)
        }
    }
}
