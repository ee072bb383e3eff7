import CFakeUSB
import FoundationEssentials
import PTP
import Synchronization

/// A umockdev testbed: a private sysfs tree and /dev/bus/usb, holding ``FakeUSBCamera``s, that every process
/// running with libumockdev-preload sees instead of the real ones: this process (when the preload is linked into
/// it, as in rawcap's tests) and children started with ``runChild(_:_:environment:timeout:)``.
///
/// libumockdev is loaded with `dlopen` when the first testbed is made, so programs that contain this code start
/// on machines without umockdev. One testbed exists per process at a time: ``withTestbed(_:)`` waits for the
/// previous one to go. Create libusb contexts inside the closure and let them go before it returns (libusb binds
/// its device monitor when a context is created).
public final class FakeUSBTestbed: @unchecked Sendable {
    let pointer: OpaquePointer
    /// The testbed's root folder (`UMOCKDEV_DIR`), under the temporary directory.
    public let rootDirectory: String
    private let cameras = Mutex<[FakeUSBCamera]>([])

    private init() throws(FakeUSBError) {
        var error = [CChar](repeating: 0, count: 512)
        guard let pointer = fakeusb_testbed_create(&error, error.count) else {
            let message = String(decoding: error.prefix { $0 != 0 }.map(UInt8.init), as: UTF8.self)
            throw FakeUSBError(
                message.contains("libumockdev") ? .umockdevMissing : .setupFailed, message)
        }
        self.pointer = pointer
        rootDirectory = String(cString: fakeusb_testbed_root(pointer))
    }

    /// Runs `body` with a new testbed, then stops its cameras and removes it. Waits while another testbed exists
    /// in the process.
    ///
    /// - Throws: ``FakeUSBError/Code/umockdevMissing`` when the umockdev package is not installed, and whatever
    ///   `body` throws.
    public static func withTestbed<T>(_ body: (FakeUSBTestbed) async throws -> T) async throws -> T {
        await FakeUSBTestbedGate.shared.acquire()
        let testbed: FakeUSBTestbed
        do {
            testbed = try FakeUSBTestbed()
        } catch {
            await FakeUSBTestbedGate.shared.release()
            throw error
        }
        do {
            let result = try await body(testbed)
            await testbed.tearDown()
            await FakeUSBTestbedGate.shared.release()
            return result
        } catch {
            await testbed.tearDown()
            await FakeUSBTestbedGate.shared.release()
            throw error
        }
    }

    /// Whether this process runs with libumockdev-preload, so that its own libusb sees the testbed.
    public var preloadIsActive: Bool { fakeusb_preload_active() != 0 }

    /// Checks that this process's own libusb will see the testbed.
    ///
    /// - Throws: ``FakeUSBError/Code/preloadMissing`` otherwise.
    public func requirePreload() throws(FakeUSBError) {
        guard preloadIsActive else {
            throw FakeUSBError(
                .preloadMissing,
                "this process does not run with libumockdev-preload: link it (.linkedLibrary(\"umockdev-preload\")) or set LD_PRELOAD=libumockdev-preload.so.0"
            )
        }
    }

    /// Adds a camera to the bus, answering with `responder`; call ``FakeUSBCamera/start()`` to serve PTP.
    ///
    /// - Throws: ``FakeUSBError/Code/setupFailed`` when the address or port is taken or umockdev refuses.
    public func addCamera(
        _ configuration: FakeUSBCamera.Configuration = FakeUSBCamera.Configuration(), responder: any PTPResponder
    ) throws(FakeUSBError) -> FakeUSBCamera {
        let camera = try FakeUSBCamera(testbed: self, configuration: configuration, responder: responder)
        cameras.withLock { $0.append(camera) }
        return camera
    }

    /// The environment a child process needs to see the testbed: `UMOCKDEV_DIR`, and libumockdev-preload in
    /// front of `LD_PRELOAD` (umockdev-wrapper does the same).
    public var childEnvironment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["UMOCKDEV_DIR"] = rootDirectory
        let preload = "libumockdev-preload.so.0"
        if let existing = environment["LD_PRELOAD"], !existing.isEmpty {
            environment["LD_PRELOAD"] =
                existing.split(separator: ":").contains(Substring(preload))
                ? existing : "\(preload):\(existing)"
        } else {
            environment["LD_PRELOAD"] = preload
        }
        return environment
    }

    private func tearDown() async {
        let cameras = self.cameras.withLock { cameras in
            defer { cameras = [] }
            return cameras
        }
        for camera in cameras { await camera.stop() }
        // After this no Swift code touches the C devices: the class-request pumps have ended, and every other
        // call finds the device gone.
        for camera in cameras { await camera.device.invalidate() }
        fakeusb_testbed_destroy(pointer)
        // The signals the C devices notified live in the cameras, which may outlive the testbed now safely.
        withExtendedLifetime(cameras) {}
    }
}
