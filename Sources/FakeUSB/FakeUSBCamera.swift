import CFakeUSB
import FoundationEssentials
import PTP
import Synchronization

/// A fake USB PTP camera in a ``FakeUSBTestbed``: a still-image device on the fake bus whose PTP behaviour is any
/// ``PTP/PTPResponder``, served through ``PTP/USBDeviceSide`` (the same container framing as in memory), with the
/// faults cameras and cables commit.
///
/// ```swift
/// try await FakeUSBTestbed.withTestbed { testbed in
///     let camera = try testbed.addCamera(responder: MyResponder())
///     camera.start()
///     // libusb (in this process, or in a child from testbed.runChild) now finds a camera at usb:001:002.
///     await camera.inject(.stallBulkIn, on: .getObject)
///     camera.pullCable()
/// }
/// ```
public final class FakeUSBCamera: Sendable {
    /// How the camera looks on the bus.
    public struct Configuration: Sendable {
        /// The bus number (the BBB of /dev/bus/usb/BBB/DDD).
        public var busNumber: UInt8
        /// The device address (DDD).
        public var deviceAddress: UInt8
        /// The root-hub port: the device's sysfs name is `<bus>-<port>`.
        public var port: UInt8
        /// idVendor; by default pid.codes' 0x1209, whose product 0x0001 is reserved for tests.
        public var vendorID: UInt16
        /// idProduct.
        public var productID: UInt16
        /// bcdDevice.
        public var deviceRelease: UInt16
        /// The Manufacturer string descriptor (`nil` for none).
        public var manufacturer: String?
        /// The Product string descriptor.
        public var product: String?
        /// The SerialNumber string descriptor.
        public var serialNumber: String?
        /// bInterfaceClass, bInterfaceSubClass, bInterfaceProtocol: 6/1/1 (still image) by default; 0xFF/0/0 plays
        /// a vendor-specific camera interface.
        public var interfaceClass: (UInt8, UInt8, UInt8)
        /// wMaxPacketSize of the bulk endpoints: 512 (USB 2.0 high speed).
        public var maxPacketSize: Int
        /// wMaxPacketSize of the interrupt endpoint: 8 like Canon's, so events span several packets.
        public var interruptMaxPacketSize: Int
        /// Bytes each direction buffers before the writer waits.
        public var queueCapacity: Int
        /// How the device side frames data phases.
        public var deviceSide: USBDeviceSide.Configuration

        /// Creates a configuration.
        public init(
            busNumber: UInt8 = 1, deviceAddress: UInt8 = 2, port: UInt8? = nil, vendorID: UInt16 = 0x1209,
            productID: UInt16 = 0x0001, deviceRelease: UInt16 = 0x0100, manufacturer: String? = "rawcap",
            product: String? = "Fake USB Camera", serialNumber: String? = "FAKE0001",
            interfaceClass: (UInt8, UInt8, UInt8) = (0x06, 0x01, 0x01), maxPacketSize: Int = 512,
            interruptMaxPacketSize: Int = 8, queueCapacity: Int = 4 << 20,
            deviceSide: USBDeviceSide.Configuration = USBDeviceSide.Configuration()
        ) {
            self.busNumber = busNumber
            self.deviceAddress = deviceAddress
            self.port = port ?? deviceAddress
            self.vendorID = vendorID
            self.productID = productID
            self.deviceRelease = deviceRelease
            self.manufacturer = manufacturer
            self.product = product
            self.serialNumber = serialNumber
            self.interfaceClass = interfaceClass
            self.maxPacketSize = maxPacketSize
            self.interruptMaxPacketSize = interruptMaxPacketSize
            self.queueCapacity = queueCapacity
            self.deviceSide = deviceSide
        }
    }

    /// How the camera looks on the bus.
    public let configuration: Configuration
    /// The camera's end of the USB link.
    public let device: FakeUSBDevice
    /// The PTP framing, serving the responder; inject faults here.
    public let deviceSide: USBDeviceSide
    /// The testbed the camera lives in.
    public let testbed: FakeUSBTestbed
    private let running = LockedTask()

    init(testbed: FakeUSBTestbed, configuration: Configuration, responder: any PTPResponder) throws(FakeUSBError) {
        guard (8...1024).contains(configuration.maxPacketSize),
            (1...1024).contains(configuration.interruptMaxPacketSize)
        else { throw FakeUSBError(.setupFailed, "packet sizes must be 8…1024 bytes (interrupt 1…1024)") }
        let signal = FakeUSBSignal()
        var error = [CChar](repeating: 0, count: 512)
        let pointer = Self.withCStrings(configuration) { config in
            var config = config
            return fakeusb_device_add(
                testbed.pointer, &config,
                { context in
                    guard let context else { return }
                    Unmanaged<FakeUSBSignal>.fromOpaque(context).takeUnretainedValue().fire()
                }, Unmanaged.passUnretained(signal).toOpaque(), &error, error.count)
        }
        guard let pointer else {
            throw FakeUSBError(.setupFailed, String(decoding: error.prefix { $0 != 0 }.map(UInt8.init), as: UTF8.self))
        }
        signal.attach(pointer)
        self.testbed = testbed
        self.configuration = configuration
        device = FakeUSBDevice(
            pointer: pointer, signal: signal, maxPacketSize: configuration.maxPacketSize,
            interruptMaxPacketSize: configuration.interruptMaxPacketSize)
        deviceSide = USBDeviceSide(endpoints: device, responder: responder, configuration: configuration.deviceSide)
    }

    /// The `--camera` value that selects this camera: `usb:001:002`.
    public var selector: String {
        "usb:\(threeDigits(configuration.busNumber)):\(threeDigits(configuration.deviceAddress))"
    }

    /// Starts serving PTP (idempotent). Until then the camera enumerates and opens, but never answers.
    ///
    /// The camera runs on ``FakeUSBExecutor``, off Swift's cooperative pool, so that it answers on time however
    /// busy the pool is.
    public func start() {
        let deviceSide = self.deviceSide
        running.start { await deviceSide.run() }
    }

    /// Stops serving and waits for the device side to finish.
    public func stop() async {
        await running.stop()
    }

    // MARK: Faults

    /// Applies a ``PTP/USBDeviceSide/Fault`` (a stall, silence, a delay, a cable pull after N bytes…) to the next
    /// transaction, or the next one of `operation`.
    public func inject(_ fault: USBDeviceSide.Fault, on operation: OperationCode? = nil) async {
        await deviceSide.inject(fault, on: operation)
    }

    /// Stalls an endpoint now, until the host clears the halt.
    public func stall(_ endpoint: USBEndpoint) async {
        await device.stall(endpoint)
    }

    /// Pulls the cable now: transfers in flight fail, and every later request says the device is gone.
    public func pullCable() async {
        await device.disconnect()
    }

    /// Takes the camera off the bus (switched off, asleep): the cable is pulled, libusb no longer lists the device,
    /// and its address and port are free for the camera's return (``FakeUSBTestbed/addCamera(_:responder:)`` with
    /// the same serial number, usually at the next address, as a real bus numbers a device that comes back).
    public func removeFromBus() async {
        await device.removeFromBus()
        await stop()
    }

    /// Makes the interface look claimed by another program (EBUSY on claim, "usbfs" as its driver), as when
    /// gvfs's gphoto2 monitor holds the camera.
    public func setHeldByAnotherProgram(_ held: Bool) {
        device.setHeldByAnotherProgram(held)
    }

    /// Makes the device node unreadable (mode 000), so that opening it fails with EACCES
    /// (`LIBUSB_ERROR_ACCESS`) for a process that is not root or runs without CAP_DAC_OVERRIDE; `false` restores
    /// mode 664.
    public func setAccessDenied(_ denied: Bool) throws(FakeUSBError) {
        try device.setNodeMode(denied ? 0 : 0o664)
    }

    /// Sends an event on the interrupt endpoint.
    public func emit(_ event: PTPEvent) async throws(USBPipeError) {
        try await deviceSide.emit(event)
    }

    /// What the host did on the wire so far.
    public var statistics: FakeUSBStatistics { device.statistics }

    /// Runs a program as a child that sees this camera (see ``FakeUSBTestbed/runChild(_:_:environment:timeout:)``).
    public func runChild(
        _ executable: String, _ arguments: [String] = [], environment: [String: String] = [:],
        timeout: Duration = .seconds(60)
    ) async throws(FakeUSBError) -> FakeUSBChildResult {
        try await testbed.runChild(executable, arguments, environment: environment, timeout: timeout)
    }

    private static func withCStrings<T>(_ configuration: Configuration, _ body: (fakeusb_config) -> T) -> T {
        func withOptional<R>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
            guard let text else { return body(nil) }
            return text.withCString { body($0) }
        }
        return withOptional(configuration.manufacturer) { manufacturer in
            withOptional(configuration.product) { product in
                withOptional(configuration.serialNumber) { serial in
                    var config = fakeusb_config()
                    config.busnum = configuration.busNumber
                    config.devnum = configuration.deviceAddress
                    config.port = configuration.port
                    config.vendor_id = configuration.vendorID
                    config.product_id = configuration.productID
                    config.bcd_device = configuration.deviceRelease
                    config.manufacturer = manufacturer
                    config.product = product
                    config.serial = serial
                    (config.interface_class, config.interface_subclass, config.interface_protocol) =
                        configuration.interfaceClass
                    config.bulk_max_packet_size = UInt16(configuration.maxPacketSize)
                    config.interrupt_max_packet_size = UInt16(configuration.interruptMaxPacketSize)
                    config.queue_capacity = max(1, configuration.queueCapacity)
                    return body(config)
                }
            }
        }
    }
}

/// The device side's task, started once and stopped once.
private final class LockedTask: Sendable {
    private let task = Mutex<Task<Void, Never>?>(nil)

    func start(_ body: @escaping @Sendable () async -> Void) {
        task.withLock { task in
            if task == nil { task = Task(executorPreference: FakeUSBExecutor.shared) { await body() } }
        }
    }

    func stop() async {
        let task = self.task.withLock { task in
            defer { task = nil }
            return task
        }
        task?.cancel()
        await task?.value
    }
}

func threeDigits(_ value: UInt8) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, 3 - digits.count)) + digits
}
