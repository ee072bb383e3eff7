import FakeUSB
import Foundation
import PTP
import PTPUSB
import Testing

/// The fake device's USB model seen through libusb: packets of wMaxPacketSize, transfers that end at a short or
/// zero-length packet or a full buffer; and the child processes that run under the testbed.
@Suite(.serialized, .timeLimit(.minutes(1))) struct FakeUSBDeviceTests {
    /// Runs `body` with the device side stopped, so the test writes the camera's packets itself.
    func withRawDevice(_ body: (FakeUSBDevice, LibUSBPipe) async throws -> Void) async throws {
        try await FakeCameraStack.run { stack in
            await stack.camera.stop()
            try await body(stack.camera.device, stack.pipe)
        }
    }

    @Test func aTransferEndsAtAShortPacketOrAFullBuffer() async throws {
        try await withRawDevice { device, pipe in
            try await device.writeBulkIn(Array(repeating: 1, count: 600))  // one full packet and one of 88 bytes
            #expect(try await pipe.readBulkIn(maxLength: 512, timeout: .seconds(1)).count == 512)
            #expect(try await pipe.readBulkIn(maxLength: 1 << 20, timeout: .seconds(1)).count == 88)
        }
    }

    @Test func wholePacketsContinueUntilAZeroLengthPacket() async throws {
        try await withRawDevice { device, pipe in
            try await device.writeBulkIn(Array(repeating: 2, count: 1024))
            try await device.writeBulkIn(Array(repeating: 3, count: 512))
            try await device.writeBulkIn([])
            let bytes = try await pipe.readBulkIn(maxLength: 1 << 20, timeout: .seconds(1))
            #expect(bytes == Array(repeating: 2, count: 1024) + Array(repeating: 3, count: 512))
        }
    }

    @Test func aZeroLengthPacketAfterAFullBufferIsAnEmptyTransfer() async throws {
        try await withRawDevice { device, pipe in
            try await device.writeBulkIn(Array(repeating: 4, count: 1024))
            try await device.writeBulkIn([])
            #expect(try await pipe.readBulkIn(maxLength: 1024, timeout: .seconds(1)).count == 1024)
            #expect(try await pipe.readBulkIn(maxLength: 1024, timeout: .seconds(1)) == [])
        }
    }

    /// The camera answers on a queue of its own, so a test process whose cooperative pool is busy (two threads on
    /// the build machines) does not make it answer after libgphoto2's timeout.
    @Test func theCameraAnswersOffTheCooperativePool() async throws {
        try await FakeCameraStack.run { stack in
            let session = stack.session()
            try await session.openSession()
            _ = try await session.getDeviceInfo()
            try await session.closeSession()
            #expect(await stack.responder.requests.count >= 2)
            #expect(await stack.responder.answeredOffThePool)
        }
        #expect(!FakeUSBExecutor.isCurrent)
    }

    @Test func hostWritesArriveAsTransfers() async throws {
        try await withRawDevice { device, pipe in
            try await pipe.writeBulkOut(Array(repeating: 5, count: 1024), timeout: .seconds(1))
            try await pipe.writeBulkOut([6, 7], timeout: .seconds(1))
            #expect(try await device.readBulkOut(maxLength: 1 << 20, timeout: .seconds(1)).count == 1026)
            try await pipe.writeBulkOut([], timeout: .seconds(1))
            #expect(try await device.readBulkOut(maxLength: 1 << 20, timeout: .seconds(1)) == [])
            await #expect(throws: USBPipeError(.timeout)) {
                try await device.readBulkOut(maxLength: 512, timeout: .milliseconds(50))
            }
        }
    }

    @Test func interruptPacketsAreEightBytes() async throws {
        try await withRawDevice { device, pipe in
            try await device.writeInterrupt(Array(0..<20))
            #expect(try await pipe.readInterrupt(maxLength: 8, timeout: .seconds(1)) == Array(0..<8))
            #expect(try await pipe.readInterrupt(maxLength: 8, timeout: .seconds(1)) == Array(8..<16))
            #expect(try await pipe.readInterrupt(maxLength: 8, timeout: .seconds(1)) == Array(16..<20))
        }
    }

    @Test func aStalledEndpointFailsUntilCleared() async throws {
        try await withRawDevice { device, pipe in
            await device.stall(.bulkIn)
            await #expect(throws: USBPipeError(.stall)) {
                try await pipe.readBulkIn(maxLength: 512, timeout: .seconds(1))
            }
            await #expect(throws: USBPipeError(.stall)) { try await device.writeBulkIn([1]) }
            try await pipe.clearHalt(.bulkIn)
            try await device.writeBulkIn([1])
            #expect(try await pipe.readBulkIn(maxLength: 512, timeout: .seconds(1)) == [1])
        }
    }

    @Test func childrenSeeTheTestbedAndAreStoppedAtTheirTimeout() async throws {
        try await FakeUSBTestbed.withTestbed { testbed in
            let shown = try await testbed.runChild(
                "/bin/sh", ["-c", #"printf '%s|%s' "$UMOCKDEV_DIR" "$LD_PRELOAD"; ls "$UMOCKDEV_DIR" >&2"#])
            #expect(shown.status == 0)
            #expect(shown.output == "\(testbed.rootDirectory)|libumockdev-preload.so.0")
            #expect(shown.errorOutput.contains("sys"))
            let started = ContinuousClock.now
            let slow = try await testbed.runChild("sleep", ["30"], timeout: .milliseconds(300))
            #expect(slow.timedOut)
            #expect(slow.status == 128 + SIGTERM)
            // Well before the child's own 30 s: the 300 ms timeout stopped it.
            #expect(ContinuousClock.now - started < .seconds(20))
            await #expect(throws: FakeUSBError(.childFailed)) { try await testbed.runChild("no-such-program-here") }
        }
    }
}
