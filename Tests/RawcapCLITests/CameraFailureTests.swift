import ArgumentParser
import PTP
import PTPUSB
import Testing
import WireFormat

@testable import RawcapCLI

/// Every failure a camera command meets ends with the documented exit status and a message that says what to do.
@Suite struct CameraFailureTests {
    static let statuses: [(error: any Error & Sendable, status: Int32)] = [
        (USBCameraError(.noCamera), 69),
        (USBCameraError(.notFound), 69),
        (USBCameraError(.ambiguous), 64),
        (USBCameraError(.permissionDenied), 77),
        (USBCameraError(.busy), 75),
        (USBCameraError(.disconnected), 74),
        (USBCameraError(.openFailed), 74),
        (LibUSBError(.other, function: "libusb_init"), 69),
        (TransportError(.disconnected), 74),
        (TransportError(.timeout), 74),
        (TransportError(.stalled), 74),
        (TransportError(.busy), 75),
        (PTPError(response: .generalError, operation: .getDeviceInfo), 76),
        (PTPError(.transactionIDMismatch, operation: .getStorageIDs), 76),
        (WireError(.truncated, at: 4, "DeviceInfo"), 76),
        (CameraFailure(.notAvailable, "later"), 69),
        (CancellationError(), 70),
    ]

    @Test func errorsMapToTheirExitStatus() {
        for (error, status) in Self.statuses {
            #expect(CameraFailure(error).exitCode == ExitCode(status), "\(error)")
        }
    }

    @Test func messagesSayWhatToDo() {
        #expect(CameraFailure(TransportError(.disconnected)).message.contains("reconnect it"))
        #expect(CameraFailure(TransportError(.timeout)).message.contains("--timeout"))
        #expect(CameraFailure(USBCameraError(.busy)).message.contains("gvfs-gphoto2-volume-monitor"))
        #expect(CameraFailure(USBCameraError(.permissionDenied)).message.contains("udev"))
        #expect(
            CameraFailure(PTPError(response: .deviceBusy, operation: .openSession)).message
                .hasPrefix("The camera refused a request rawcap needs"))
    }
}
