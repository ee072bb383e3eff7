import CameraEmulator
import Dispatch
import PTP
import RawImage
import SceneSynthesis
import Testing

/// InitiateCapture through PTPSession: answered at once, completed by events, objects on the card with their
/// ObjectInfo, and exposure that follows the controls.
@Suite struct CaptureTests {
    @Test(arguments: Reach.allCases)
    func aRawCaptureStoresOneTIFFEPObjectAndAnnouncesIt(reach: Reach) async throws {
        let frames = FrameLog()
        let camera = try smallCamera(frames: frames)
        let link = try await reach.connect(camera)
        let session = PTPSession(transport: link.transport)
        try await session.openSession()
        let before = try await session.getStorageInfo(EmulatedCamera.cardStorageID)

        let handles = try await shoot(session)
        let handle = try #require(handles.first)
        #expect(handles.count == 1)
        let info = try await session.getObjectInfo(handle)
        #expect(info.objectFormat == .tiffEP)
        #expect(info.storageID == EmulatedCamera.cardStorageID)
        #expect(info.filename == "RCAP0001.TIF")
        #expect(info.imagePixWidth == 96 && info.imagePixHeight == 64 && info.imageBitDepth == 14)
        #expect(info.captureDateTime?.year == 2024 && info.captureDateTime?.month == 5)
        #expect(info.captureDate == info.modificationDate)
        let folder = try await session.getObjectInfo(info.parentObject)
        #expect(folder.filename == "100RAWCP" && folder.objectFormat == .association)
        #expect(try await session.getObjectInfo(folder.parentObject).filename == "DCIM")

        let bytes = try await download(session, handle)
        #expect(UInt64(bytes.count) == info.byteCount)
        #expect(bytes.prefix(4) == [0x49, 0x49, 42, 0])
        // GetPartialObject in small chunks gives the same bytes.
        let sink = PTPMemorySink(limit: 1 << 26)
        try await session.downloadObject(handle, byteCount: UInt64(bytes.count), into: sink, chunkByteCount: 5000)
        #expect(await sink.bytes == bytes)

        // The card's free space shrank by the object.
        let after = try await session.getStorageInfo(EmulatedCamera.cardStorageID)
        #expect(before.freeSpaceInBytes - after.freeSpaceInBytes == UInt64(bytes.count))
        #expect(frames.all.count == 1)
        await link.close()
    }

    @Test func objectHandlesFilterByStoreFormatAndFolder() async throws {
        let link = EmulatorLink.usb(try smallCamera())
        let session = PTPSession(transport: link.transport)
        try await session.openSession()
        let first = try await shoot(session)
        let second = try await shoot(session)
        try await session.setDevicePropValue(CameraModel.captureTargetCode, .uint8(1))
        let inMemory = try await shoot(session)
        let raws = first + second

        let all = try await session.getObjectHandles()
        #expect(all.count == 5)  // DCIM, 100RAWCP, two files on the card, one in memory
        #expect(try await session.getObjectHandles(format: .tiffEP) == raws + inMemory)
        #expect(try await session.getObjectHandles(storage: EmulatedCamera.memoryStorageID) == inMemory)
        let card = try await session.getObjectHandles(storage: EmulatedCamera.cardStorageID, parent: .root)
        #expect(card.count == 1)
        let dcim = try #require(card.first)
        let folders = try await session.getObjectHandles(parent: .folder(dcim))
        #expect(folders.count == 1)
        #expect(try await session.getObjectHandles(parent: .folder(try #require(folders.first))) == raws)
        #expect(try await session.getNumObjects(format: .tiffEP) == 3)
        await #expect(throws: PTPError(response: .invalidParentObject, operation: .getObjectHandles)) {
            _ = try await session.getObjectHandles(parent: .folder(raws[0]))
        }
        #expect(try await session.getObjectInfo(inMemory[0]).filename == "RCAP0003.TIF")
        #expect(try await session.getObjectInfo(inMemory[0]).parentObject == ObjectHandle(rawValue: 0))
        await link.close()
    }

    @Test func deletingObjectsGivesTheirSpaceBack() async throws {
        let link = EmulatorLink.usb(try smallCamera())
        let session = PTPSession(transport: link.transport)
        try await session.openSession()
        let empty = try await session.getStorageInfo(EmulatedCamera.cardStorageID).freeSpaceInBytes
        let first = try await shoot(session)
        _ = try await shoot(session)
        try await session.deleteObject(first[0])
        await #expect(throws: PTPError(response: .invalidObjectHandle, operation: .getObjectInfo)) {
            _ = try await session.getObjectInfo(first[0])
        }
        #expect(try await session.getNumObjects(format: .tiffEP) == 1)
        // Delete all: every file goes, the DCF folders stay.
        try await session.deleteObject(ObjectHandle(rawValue: 0xFFFF_FFFF))
        #expect(try await session.getNumObjects() == 2)
        #expect(try await session.getStorageInfo(EmulatedCamera.cardStorageID).freeSpaceInBytes == empty)
        // The next shot keeps counting file numbers, as DCF cameras do.
        let next = try await shoot(session)
        #expect(try await session.getObjectInfo(next[0]).filename == "RCAP0003.TIF")
        await link.close()
    }

    @Test func otherOperationsAreAnsweredWhileAShotDevelops() async throws {
        // The shot's development waits at a gate (the render queue is the emulator's own thread, not the test's
        // pool), so "while a shot develops" does not depend on how fast this machine renders.
        let gate = DispatchSemaphore(value: 0)
        var configuration = EmulatedCamera.Configuration(sensorWidth: 96, sensorHeight: 64)
        configuration.renderedFrameHandler = { _ in gate.wait() }
        let camera = try EmulatedCamera(configuration: configuration)
        let link = EmulatorLink.usb(camera)
        let session = PTPSession(transport: link.transport)
        try await session.openSession()
        try await session.initiateCapture()
        #expect(await camera.isCapturing)
        // Served while developing; a second capture is refused until the first completes.
        #expect(try await session.getStorageIDs().count == 2)
        await #expect(throws: PTPError(response: .deviceBusy, operation: .initiateCapture)) {
            try await session.initiateCapture()
        }
        // Not announced yet: not there.
        #expect(try await session.getNumObjects(format: .tiffEP) == 0)
        gate.signal()
        await camera.waitForCapture()
        #expect(try await session.getNumObjects(format: .tiffEP) == 1)
        await link.close()
    }

    @Test func aBracketReallyDiffersAndNoiseFollowsISO() async throws {
        let frames = FrameLog()
        let link = EmulatorLink.usb(try smallCamera(frames: frames))
        let session = PTPSession(transport: link.transport)
        try await session.openSession()
        for thousandths: Int16 in [-2000, -1000, 0] {
            try await session.setDevicePropValue(.exposureBiasCompensation, .int16(thousandths))
            _ = try await shoot(session)
        }
        try await session.setDevicePropValue(.exposureBiasCompensation, .int16(0))
        try await session.setDevicePropValue(.exposureIndex, .uint16(1600))
        try await session.setDevicePropValue(.exposureTime, .uint32(5))  // 1/2000 s: 4 stops less light, ISO +4 stops
        _ = try await shoot(session)
        let shots = frames.all
        try #require(shots.count == 4)
        let signal = shots.map(Self.meanSignal)
        #expect(abs(signal[1] / signal[0] - 2) < 0.06, "−1 EV over −2 EV: \(signal)")
        #expect(abs(signal[2] / signal[1] - 2) < 0.06, "0 EV over −1 EV: \(signal)")
        #expect(shots[0].metadata.exposureBias == Rational(-6, 3))
        #expect(shots[3].metadata.iso == 1600 && shots[3].metadata.exposureTime == Rational(1, 2000))
        // The same signal at ISO 1600 and 1/2000 s as at ISO 100 and 1/125 s, but far more noise in the masked
        // margin, where only read noise lives.
        #expect(abs(signal[3] / signal[2] - 1) < 0.1, "\(signal)")
        #expect(Self.maskedNoise(shots[3]) > 5 * Self.maskedNoise(shots[2]))
        await link.close()
    }

    @Test func rawBitDepthAndWhiteBalanceFollowTheirProperties() async throws {
        let frames = FrameLog()
        let link = EmulatorLink.usb(try smallCamera(frames: frames))
        let session = PTPSession(transport: link.transport)
        try await session.openSession()
        try await session.setDevicePropValue(CameraModel.rawBitDepthCode, .uint8(12))
        try await session.setDevicePropValue(.whiteBalance, .uint16(6))  // tungsten
        let handle = try #require(try await shoot(session).first)
        #expect(try await session.getObjectInfo(handle).imageBitDepth == 12)
        let frame = try #require(frames.all.first)
        #expect(frame.bitsPerSample == 12 && frame.whiteLevel == 3839 && frame.blackLevels.allSatisfy { $0 == 128 })
        #expect(frame.samples.allSatisfy { Int($0) <= frame.whiteLevel })
        // Balanced for tungsten under daylight: the neutral is Standard A's, far bluer in the red channel's terms.
        var tungsten = try SyntheticScene(width: 96, height: 64, cfa: .rggb, bitsPerSample: 12)
        tungsten.illuminant = .standardA
        #expect(frame.color.asShotNeutral == (try tungsten.colorCalibration().asShotNeutral))
        await link.close()
    }

    @Test func aFullCardAnswersStoreFull() async throws {
        // Room for one 96×64 raw shot (12 KB of samples plus the 64 KiB allowance for tags), not for two.
        let link = EmulatorLink.usb(try smallCamera(cardCapacity: 80_000))
        let session = PTPSession(transport: link.transport)
        try await session.openSession()
        _ = try await shoot(session)
        await #expect(throws: PTPError(response: .storeFull, operation: .initiateCapture)) {
            try await session.initiateCapture()
        }
        #expect(try await session.getStorageInfo(EmulatedCamera.cardStorageID).freeSpaceInImages == 0)
        // Camera memory still has room.
        _ = try await shoot(session, storage: EmulatedCamera.memoryStorageID)
        await link.close()
    }

    /// The mean black-subtracted signal of the active area.
    static func meanSignal(_ frame: RawFrame) -> Double {
        var sum = 0.0
        var count = 0
        let area = frame.activeArea
        for row in area.y..<area.bottom {
            for column in area.x..<area.right {
                sum += Double(frame.sample(row: row, column: column)) - frame.blackLevel(row: row, column: column)
                count += 1
            }
        }
        return sum / Double(max(count, 1))
    }

    /// The standard deviation of the masked photosites (left of and above the active area).
    static func maskedNoise(_ frame: RawFrame) -> Double {
        var values: [Double] = []
        for row in 0..<frame.height {
            for column in 0..<frame.width
            where row < frame.activeArea.y || column < frame.activeArea.x {
                values.append(Double(frame.sample(row: row, column: column)))
            }
        }
        let mean = values.reduce(0, +) / Double(values.count)
        return (values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count)).squareRoot()
    }
}
