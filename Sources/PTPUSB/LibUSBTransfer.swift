import CLibUSB
import Synchronization

/// One bulk or interrupt transfer, run to completion on the calling thread (an I/O thread, never the cooperative
/// pool) with libusb's asynchronous API: submit, then handle events until the callback has run.
///
/// This is what `libusb_bulk_transfer` does internally, plus a way out: a ``Cancellation`` set from another thread
/// calls `libusb_cancel_transfer`, so a task cancelled during a long read does not wait for the timeout. Several
/// threads may run transfers on one context at once (libusb's event lock lets one of them handle events while the
/// others wait for completions), which is how an interrupt read waits beside a bulk read. The value only holds
/// libusb pointers, which libusb allows any thread to use.
struct LibUSBTransfer: @unchecked Sendable {
    /// A flag another thread raises to abandon the transfer.
    final class Cancellation: Sendable {
        private let raised = Mutex(false)

        /// Raises the flag.
        func cancel() {
            raised.withLock { $0 = true }
        }

        /// Whether the flag is raised.
        var isCancelled: Bool {
            raised.withLock { $0 }
        }
    }

    /// How a transfer ended: the bytes moved, and the error if it did not complete.
    struct Outcome: Sendable {
        /// libusb's `actual_length`: bytes transferred, also when the transfer failed part-way.
        var actualLength: Int
        /// `nil` when the transfer completed (`LIBUSB_TRANSFER_COMPLETED`).
        var error: LibUSBError?
    }

    let context: OpaquePointer
    let handle: OpaquePointer
    /// The endpoint address (bit 7 set for IN).
    let endpoint: UInt8
    /// `LIBUSB_TRANSFER_TYPE_BULK` or `LIBUSB_TRANSFER_TYPE_INTERRUPT`.
    let type: UInt8

    /// Runs the transfer on `buffer` (`length` bytes; ignored for a zero-length transfer) and waits for it.
    func run(
        buffer: UnsafeMutablePointer<UInt8>, length: Int, timeout: Duration, cancellation: Cancellation
    ) -> Outcome {
        // A pipe closing cancels every registered transfer before it drains the I/O threads and closes the handle;
        // a job that reaches its thread only after that drain must not touch the handle (it may be freed already).
        guard !cancellation.isCancelled else {
            return Outcome(actualLength: 0, error: LibUSBError(.interrupted, function: "libusb_submit_transfer", "transfer cancelled"))
        }
        guard let transfer = libusb_alloc_transfer(0) else {
            return Outcome(actualLength: 0, error: LibUSBError(.noMemory, function: "libusb_alloc_transfer"))
        }
        defer { libusb_free_transfer(transfer) }
        let completed = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
        completed.initialize(to: 0)
        defer { completed.deallocate() }

        transfer.pointee.dev_handle = handle
        transfer.pointee.endpoint = endpoint
        transfer.pointee.type = type
        transfer.pointee.timeout = Self.milliseconds(timeout)
        transfer.pointee.buffer = buffer
        transfer.pointee.length = Int32(clamping: length)
        transfer.pointee.user_data = UnsafeMutableRawPointer(completed)
        transfer.pointee.callback = { transfer in
            transfer?.pointee.user_data?.assumingMemoryBound(to: Int32.self).pointee = 1
        }

        let submitted = libusb_submit_transfer(transfer)
        guard submitted == 0 else {
            return Outcome(
                actualLength: 0, error: LibUSBError(returnValue: submitted, function: "libusb_submit_transfer"))
        }
        var cancelRequested = false
        while completed.pointee == 0 {
            // A tenth of a second bounds how long a cancel waits to be noticed.
            var interval = timeval(tv_sec: 0, tv_usec: 100_000)
            let result = libusb_handle_events_timeout_completed(context, &interval, completed)
            if result < 0 && result != LIBUSB_ERROR_INTERRUPTED.rawValue && !cancelRequested {
                // As libusb's own synchronous transfers do: stop the transfer and keep handling events until its
                // callback has run, since libusb still owns the buffer until then.
                libusb_cancel_transfer(transfer)
                cancelRequested = true
            }
            if !cancelRequested && cancellation.isCancelled {
                libusb_cancel_transfer(transfer)
                cancelRequested = true
            }
        }
        let actual = Int(max(0, transfer.pointee.actual_length))
        guard let code = LibUSBError.Code(transferStatus: transfer.pointee.status) else {
            return Outcome(actualLength: actual, error: nil)
        }
        let what = cancelRequested && code == .interrupted ? "transfer cancelled" : "endpoint \(hexByte(endpoint))"
        return Outcome(actualLength: actual, error: LibUSBError(code, function: "libusb_submit_transfer", what))
    }

    /// libusb timeouts are unsigned milliseconds where 0 means "wait for ever": round up, at least 1 ms.
    static func milliseconds(_ duration: Duration) -> UInt32 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 1 }
        let total = Double(seconds) * 1000 + (Double(attoseconds) / 1e15).rounded(.up)
        return UInt32(min(max(1, total), Double(UInt32.max - 1)))
    }
}

/// `0x81`.
func hexByte(_ value: UInt8) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return "0x" + (digits.count < 2 ? "0" : "") + digits
}
