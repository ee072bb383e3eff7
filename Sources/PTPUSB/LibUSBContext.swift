import CLibUSB
import Logging

/// A libusb session (`libusb_context`): discovery of cameras, and the context their pipes run in.
///
/// Create one per connection, not a global: under umockdev a context must be created after the test's testbed
/// (libusb binds its device monitor at `libusb_init`). The context lives as long as the pipes opened from it and
/// calls `libusb_exit` when the last reference goes. Its blocking calls (enumeration, string descriptors, opening)
/// run on a thread of its own.
public final class LibUSBContext: Sendable {
    let pointer: LibUSBPointer
    let thread: LibUSBIOThread
    let logger: Logger

    private init(pointer: LibUSBPointer, thread: LibUSBIOThread, logger: Logger) {
        self.pointer = pointer
        self.thread = thread
        self.logger = logger
    }

    /// Initialises libusb (`libusb_init`).
    public static func make(logger: Logger = Logger(label: "rawcap.usb")) async throws(LibUSBError) -> LibUSBContext {
        let thread = LibUSBIOThread(name: "rawcap.libusb.context")
        let result = await thread.run { () -> Result<LibUSBPointer, LibUSBError> in
            var context: OpaquePointer?
            let status = libusb_init(&context)
            guard status == 0, let context else {
                return .failure(LibUSBError(returnValue: status, function: "libusb_init"))
            }
            return .success(LibUSBPointer(context))
        }
        guard let result else { throw LibUSBError(.other, function: "libusb_init", "I/O thread stopped") }
        return LibUSBContext(pointer: try result.get(), thread: thread, logger: logger)
    }

    deinit {
        libusb_exit(pointer.raw)
        thread.stop()
    }

    /// Runs `body` on the context's thread.
    func run<T: Sendable>(_ body: @escaping @Sendable () -> Result<T, LibUSBError>) async throws(LibUSBError) -> T {
        guard let result = await thread.run(body) else { throw LibUSBError(.other, "libusb thread stopped") }
        return try result.get()
    }
}

/// A libusb object pointer (`libusb_context *`, `libusb_device_handle *`) handed between threads. libusb's handles
/// and contexts are thread-safe; the owner of the value decides when it is freed.
struct LibUSBPointer: @unchecked Sendable {
    let raw: OpaquePointer

    init(_ raw: OpaquePointer) { self.raw = raw }
}
