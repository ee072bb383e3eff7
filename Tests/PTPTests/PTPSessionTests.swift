import Logging
import PTP
import TestSupport
import Testing
import WireFormat

/// The session over both transports, against the strict test responder.
@Suite struct PTPSessionTests {
    enum Link: String, CaseIterable, Sendable { case usb, ptpip }

    /// A session over `link`, with a way to stop the device.
    struct Rig {
        let session: PTPSession
        let responder: TestResponder
        let stop: @Sendable () async -> Void
    }

    static func rig(_ link: Link, responder: TestResponder = TestResponder(), logger: Logger? = nil) async throws -> Rig
    {
        switch link {
        case .usb:
            let stack = logger.map { USBStack(responder: responder, logger: $0) } ?? USBStack(responder: responder)
            return Rig(session: stack.session(), responder: responder, stop: { await stack.stop() })
        case .ptpip:
            let stack = try await PTPIPStack.connect(responder: responder)
            return Rig(session: stack.session(), responder: responder, stop: { await stack.stop() })
        }
    }

    @Test(arguments: Link.allCases)
    func transactionIDsFollowTheSession(link: Link) async throws {
        let rig = try await Self.rig(link)
        _ = try await rig.session.getDeviceInfo()
        try await rig.session.openSession(id: 7)
        #expect(await rig.session.sessionID == 7)
        _ = try await rig.session.getStorageIDs()
        _ = try await rig.session.getObjectHandles()
        try await rig.session.closeSession()
        _ = try await rig.session.getDeviceInfo()
        let requests = await rig.responder.requests
        #expect(
            requests.map(\.code) == [
                .getDeviceInfo, .openSession, .getStorageIDs, .getObjectHandles, .closeSession, .getDeviceInfo,
            ])
        #expect(requests.map(\.transactionID) == [0, 0, 1, 2, 3, 0])
        #expect(requests[1].parameters == [7])
        await rig.stop()
    }

    @Test(arguments: Link.allCases)
    func operationsOutsideASessionAnswerSessionNotOpen(link: Link) async throws {
        let rig = try await Self.rig(link)
        await #expect(throws: PTPError(response: .sessionNotOpen, operation: .getStorageIDs)) {
            _ = try await rig.session.getStorageIDs()
        }
        await rig.stop()
    }

    @Test func sessionAlreadyOpenedCountsAsOpen() async throws {
        let rig = try await Self.rig(.usb)
        try await rig.session.openSession()
        // A second session object on the same link, as after a host crash: the device says it is already open.
        await rig.responder.script(.openSession, PTPResponderReply(.sessionAlreadyOpened))
        try await rig.session.openSession()
        #expect(await rig.session.sessionID == 1)
        await rig.stop()
    }

    @Test(arguments: Link.allCases)
    func errorsNameTheOperationAndTheResponse(link: Link) async throws {
        let rig = try await Self.rig(link)
        try await rig.session.openSession()
        let error = await #expect(throws: PTPError(response: .invalidObjectHandle, operation: .getObjectInfo)) {
            _ = try await rig.session.getObjectInfo(ObjectHandle(rawValue: 0x42))
        }
        #expect(error?.description == "GetObjectInfo (0x1008) answered InvalidObjectHandle (0x2009)")
        await #expect(throws: PTPError(response: .operationNotSupported, operation: .formatStore)) {
            try await rig.session.execute(.formatStore)
        }
        await rig.stop()
    }

    @Test func vendorCodesAreNamedWithTheDevicesVendor() async throws {
        let responder = TestResponder(
            deviceInfo: DeviceInfo(vendorExtensionID: .microsoft, manufacturer: "Nikon Corporation"))
        let rig = try await Self.rig(.usb, responder: responder)
        _ = try await rig.session.getDeviceInfo()
        #expect(await rig.session.vendor == .nikon)
        try await rig.session.openSession()
        await responder.script(.Nikon.deviceReady, PTPResponderReply(.deviceBusy))
        let error = await #expect(throws: PTPError(response: .deviceBusy, operation: .Nikon.deviceReady)) {
            try await rig.session.execute(.Nikon.deviceReady)
        }
        #expect(error?.description == "Nikon.DeviceReady (0x90C8) answered DeviceBusy (0x2019)")
        await responder.script(.Nikon.initiateCaptureRecInSdram, PTPResponderReply(ResponseCode(0xA002)))
        let focus = await #expect(throws: PTPError.self) {
            try await rig.session.execute(.Nikon.initiateCaptureRecInSdram, parameters: [0xFFFF_FFFF])
        }
        #expect(focus?.description == "Nikon.InitiateCaptureRecInSdram (0x90C0) answered Nikon.OutOfFocus (0xA002)")
        await rig.stop()
    }

    @Test(arguments: Link.allCases)
    func typedOperationsWork(link: Link) async throws {
        let rig = try await Self.rig(link)
        let info = try await rig.session.getDeviceInfo()
        #expect(info.model == "Test Camera")
        try await rig.session.openSession()
        let stores = try await rig.session.getStorageIDs()
        #expect(stores == [StorageID(rawValue: 0x0001_0001)])
        #expect(try await rig.session.getStorageInfo(stores[0]).volumeLabel == "CARD")
        let dng = await rig.responder.add(
            ObjectInfo(storageID: stores[0], objectFormat: .dng, objectCompressedSize: 4000, filename: "A.DNG"),
            data: PatternSource(byteCount: 4000), thumb: [1, 2, 3])
        let jpeg = await rig.responder.add(
            ObjectInfo(storageID: stores[0], objectFormat: .exifJPEG, filename: "B.JPG"),
            data: PatternSource(byteCount: 9))
        #expect(try await rig.session.getNumObjects() == 2)
        #expect(try await rig.session.getNumObjects(format: .dng) == 1)
        #expect(try await rig.session.getObjectHandles(storage: stores[0]) == [dng, jpeg])
        #expect(try await rig.session.getObjectInfo(dng).filename == "A.DNG")
        #expect(try await rig.session.getThumb(dng) == [1, 2, 3])
        await #expect(throws: PTPError(response: .noThumbnailPresent, operation: .getThumb)) {
            _ = try await rig.session.getThumb(jpeg)
        }
        let sink = CollectingSink()
        #expect(try await rig.session.getObject(dng, into: sink) == 4000)
        #expect(await sink.bytes == PatternSource.bytes(0..<4000))
        let part = CollectingSink()
        #expect(try await rig.session.getPartialObject(dng, offset: 1000, maxByteCount: 123, into: part) == 123)
        #expect(await part.bytes == PatternSource.bytes(1000..<1123))
        try await rig.session.deleteObject(jpeg)
        #expect(try await rig.session.getObjectHandles() == [dng])

        await rig.responder.setProperty(
            DevicePropDesc(
                propertyCode: .exposureIndex, dataType: .uint16, factoryDefaultValue: .uint16(100),
                currentValue: .uint16(100),
                form: .enumeration([.uint16(100), .uint16(400)])))
        let desc = try await rig.session.getDevicePropDesc(.exposureIndex)
        #expect(desc.form == .enumeration([.uint16(100), .uint16(400)]))
        try await rig.session.setDevicePropValue(.exposureIndex, .uint16(400))
        #expect(try await rig.session.getDevicePropValue(.exposureIndex, type: desc.dataType) == .uint16(400))
        await #expect(throws: PTPError(response: .invalidDevicePropFormat, operation: .setDevicePropValue)) {
            try await rig.session.setDevicePropValue(.exposureIndex, .uint32(400))
        }
        await #expect(throws: PTPError(response: .devicePropNotSupported, operation: .getDevicePropDesc)) {
            _ = try await rig.session.getDevicePropDesc(.whiteBalance)
        }

        try await rig.session.initiateCapture()
        let added = try await rig.session.nextEvent(timeout: .seconds(2))
        #expect(added?.code == .objectAdded)
        let complete = try await rig.session.nextEvent(timeout: .seconds(2))
        #expect(complete?.code == .captureComplete)
        let newHandle = try #require(added?.parameters.first)
        #expect(try await rig.session.getObjectInfo(ObjectHandle(rawValue: newHandle)).objectFormat == .dng)

        let raw = try await rig.session.execute(.getStorageIDs, dataOut: nil, expectDataIn: true)
        #expect(raw.data == StorageIDArray(stores).ptpEncoded)
        await rig.stop()
    }

    @Test(arguments: Link.allCases)
    func concurrentCallsRunOneAtATimeInOrder(link: Link) async throws {
        let rig = try await Self.rig(link)
        try await rig.session.openSession()
        try await withThrowingTaskGroup(of: [StorageID].self) { group in
            for _ in 0..<20 { group.addTask { try await rig.session.getStorageIDs() } }
            for try await ids in group { #expect(ids.count == 1) }
        }
        // The responder checks every transaction ID; all 20 passed, numbered 1…20.
        #expect(await rig.responder.requests.dropFirst().map(\.transactionID) == Array(1...20))
        await rig.stop()
    }

    @Test(arguments: Link.allCases)
    func eventsStream(link: Link) async throws {
        let rig = try await Self.rig(link)
        var iterator = rig.session.events(pollTimeout: .milliseconds(50)).makeAsyncIterator()
        await rig.responder.emit(PTPEvent(code: .storeFull))
        #expect(try await iterator.next()?.code == .storeFull)
        await rig.stop()
    }

    /// A 100 MB GetObject streams: no chunk is larger than a transfer, the whole pipeline (device side, pipe or
    /// stream, transport) never holds more than a few megabytes between the camera's source and the sink, and the
    /// process's memory does not grow by anything like the object's size.
    @Test(arguments: Link.allCases)
    func aLargeObjectStreamsWithoutBeingHeldInMemory(link: Link) async throws {
        let rig = try await Self.rig(link)
        try await rig.session.openSession()
        let size: UInt64 = 100_000_000
        let produced = ByteCounter()
        let handle = await rig.responder.add(
            ObjectInfo(objectCompressedSize: UInt32(size)),
            data: BlockPatternSource(byteCount: size, produced: produced))
        let sink = MeasuringSink(expected: { BlockPatternSource.value(at: $0) }, checkEvery: 4096, produced: produced)
        let before = residentBytes()
        let received = try await rig.session.getObject(handle, into: sink)
        #expect(received == size)
        #expect(await sink.byteCount == size)
        #expect(await sink.mismatchOffset == nil)
        #expect(await sink.largestChunk <= 1 << 20)
        #expect(await sink.announced == [size])
        // In flight: the pipe's or stream's 4 MiB buffer, a chunk being read and one being written.
        let inFlight = await sink.peakInFlightBytes
        #expect(inFlight <= 8 << 20, "\(inFlight >> 20) MiB in flight between source and sink")
        // Resident memory is shared with the tests running alongside, so this bound is loose: under the object's
        // size, where holding it twice would be twice that.
        let growth = await sink.peakResidentBytes - before
        #expect(growth < Int(size), "resident memory grew by \(growth >> 20) MiB while streaming 100 MB")
        await rig.stop()
    }

    @Test func partialDownloadsResumeAfterAnInterruption() async throws {
        let stack = USBStack()
        let session = stack.session(.init(timeout: .milliseconds(300), partialObjectChunkByteCount: 100_000))
        try await session.openSession()
        let size = 1_000_000
        let handle = await stack.responder.add(ObjectInfo(), data: PatternSource(byteCount: UInt64(size)))
        // The camera falls silent 30 000 bytes into the first chunk, then again 512 bytes into the retry.
        await stack.device.inject(.stopDataIn(afterBytes: 30_000), on: .getPartialObject)
        await stack.device.inject(.stopDataIn(afterBytes: 512), on: .getPartialObject)
        let sink = CollectingSink()
        try await session.downloadObject(handle, byteCount: UInt64(size), into: sink)
        #expect(await sink.bytes == PatternSource.bytes(0..<size))
        #expect(await sink.announced == [UInt64(size)])
        let offsets = await stack.responder.requests.filter { $0.code == .getPartialObject }.map(\.parameters[1])
        // Each retry starts where the bytes stopped: whole 512-byte packets arrived, the first one with the header.
        #expect(offsets.prefix(4) == [0, 29_684, 30_184, 130_184])
        await stack.stop()
    }

    @Test func partialDownloadsResumeAfterADisconnectOnANewLink() async throws {
        let responder = TestResponder()
        let first = USBStack(responder: responder)
        let session = first.session(.init(timeout: .seconds(2), partialObjectChunkByteCount: 64 * 1024))
        try await session.openSession()
        let size = 500_000
        let handle = await responder.add(ObjectInfo(), data: PatternSource(byteCount: UInt64(size)))
        await first.device.inject(.disconnect(afterBytes: 40_000), on: .getPartialObject)
        let sink = CollectingSink()
        let reconnected = ReconnectLog()
        try await session.downloadObject(handle, byteCount: UInt64(size), into: sink) { session in
            // The cable came back: a new pipe to the same camera, a new transport, the session opened again.
            let second = USBStack(responder: responder)
            await reconnected.append(second)
            await responder.forgetSession()
            await session.attach(second.transport)
            try await session.openSession()
        }
        #expect(await sink.bytes == PatternSource.bytes(0..<size))
        let offsets = await responder.requests.filter { $0.code == .getPartialObject }.map { $0.parameters[1] }
        #expect(offsets.contains(40_000))
        await first.stop()
        for stack in await reconnected.stacks { await stack.stop() }
    }

    @Test func aDisconnectWithoutReconnectFails() async throws {
        let stack = USBStack()
        let session = stack.session()
        try await session.openSession()
        let handle = await stack.responder.add(ObjectInfo(), data: PatternSource(byteCount: 300_000))
        await stack.device.inject(.disconnect(afterBytes: 1000), on: .getPartialObject)
        let sink = CollectingSink()
        await #expect(throws: TransportError(.disconnected)) {
            try await session.downloadObject(handle, byteCount: 300_000, into: sink, chunkByteCount: 100_000)
        }
        #expect(await sink.bytes == PatternSource.bytes(0..<1000))
        await stack.stop()
    }

    @Test func objectsBeyond32BitOffsetsAreRefused() async throws {
        let stack = USBStack()
        let session = stack.session()
        await #expect(throws: WireError(.doesNotFit)) {
            try await session.downloadObject(ObjectHandle(rawValue: 1), byteCount: 5 << 30, into: CollectingSink())
        }
        await stack.stop()
    }

    @Test func containersAreHexDumpedAtTrace() async throws {
        let (logger, store) = CapturingLogHandler.logger(level: .trace)
        let rig = try await Self.rig(.usb, logger: logger)
        _ = try await rig.session.getDeviceInfo()
        let messages = store.all
        #expect(
            messages.contains {
                $0.hasPrefix("trace: USB OUT Command(GetDeviceInfo, tid 0, []): 0c 00 00 00 01 00 01 10 00 00 00 00")
            })
        #expect(messages.contains { $0.contains("USB IN") && $0.contains("02 00 01 10") })
        await rig.stop()
    }
}

/// The stacks made by a reconnect closure, so the test can stop them.
actor ReconnectLog {
    private(set) var stacks: [USBStack] = []
    func append(_ stack: USBStack) { stacks.append(stack) }
}
