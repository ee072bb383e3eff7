import PTP
import Testing
import WireFormat

/// The session conveniences against ``VendorResponder`` over an in-memory USB pipe, each driven the way a capture
/// driver will: the facts and state machines of this module, one session call per step.
@Suite struct VendorSessionTests {
    static func info(_ vendor: VendorExtensionID, _ manufacturer: String, _ operations: [OperationCode]) -> DeviceInfo {
        DeviceInfo(
            standardVersion: 100, vendorExtensionID: vendor, vendorExtensionVersion: 100, vendorExtensionDesc: "",
            operationsSupported: [.getDeviceInfo, .openSession, .getObjectInfo, .getObject] + operations,
            manufacturer: manufacturer, model: "Test", deviceVersion: "1", serialNumber: "1")
    }

    @Test func canonEOSCaptureToTheHost() async throws {
        let info = Self.info(
            .canon, "Canon Inc.",
            [
                OperationCode.Canon.getEvent, OperationCode.Canon.remoteReleaseOn, OperationCode.Canon.remoteReleaseOff,
            ])
        let stack = VendorStack(info)
        defer { Task { await stack.stop() } }
        let shot = CanonEOSTransferRequest(
            handle: ObjectHandle(rawValue: 0x9190_0001), format: ObjectFormatCode(0xB103), byteCount: 5,
            filename: "IMG_0001.CR2")
        await stack.responder.configure {
            $0.canonEventReplies = [
                CanonEOSEventList([
                    .propertyChanged(
                        CanonEOSPropertyChange(property: DevicePropertyCode.Canon.eosISOSpeed, value: [0x48, 0, 0, 0]))
                ]),
                CanonEOSEventList([]),  // drained
                CanonEOSEventList([]),  // first poll after the release: nothing yet
                CanonEOSEventList([.requestObjectTransfer(shot)]),
            ]
            $0.objects[shot.handle.rawValue] = [1, 2, 3, 4, 5]
        }
        let session = stack.session
        #expect(CameraFamily.identify(try await session.getDeviceInfo()).family == .canonEOS)
        try await session.openSession()
        for step in CanonEOSCapture.preparation {
            switch step {
            case .operation(let code, let parameters): try await session.execute(code, parameters: parameters)
            case .setProperty(let value): try await session.canonSetPropertyValue(value)
            case .drainEvents: while try await !session.canonGetEvents().events.isEmpty {}
            }
        }
        var sequence = CanonEOSCaptureSequence(info: info, configuration: .init(pollInterval: .milliseconds(1)))
        var step = sequence.firstStep
        var downloaded: [[UInt8]] = []
        loop: for _ in 0..<50 {
            switch step {
            case .operation(let code, let parameters):
                try await session.execute(code, parameters: parameters)
                step = sequence.next(after: .done)
            case .getEvents(let delay):
                try await Task.sleep(for: delay)
                step = sequence.next(after: .events(try await session.canonGetEvents()))
            case .download(let request):
                let sink = PTPMemorySink()
                _ = try await session.getObject(request.handle, into: sink)
                downloaded.append(await sink.bytes)
                try await session.canonTransferComplete(request.handle)
                step = sequence.next(after: .done)
            case .finished:
                break loop
            case .failed(let reason):
                Issue.record("\(reason)")
                break loop
            }
        }
        #expect(downloaded == [[1, 2, 3, 4, 5]])
        #expect(sequence.requestedHandles == [shot.handle])

        let sent = await stack.responder.requests.map(\.code)
        let download = try #require(sent.firstIndex(of: .getObject))
        #expect(sent[download + 1] == OperationCode.Canon.transferComplete)
        #expect(sent.contains(OperationCode.Canon.remoteReleaseOn) && sent.contains(OperationCode.Canon.pcHDDCapacity))
        let releaseOn = await stack.responder.requests.first { $0.code == OperationCode.Canon.remoteReleaseOn }
        #expect(releaseOn?.parameters == [3, 1])
        #expect(await stack.responder.canonProperties[0xD11C] == [4, 0, 0, 0])
    }

    @Test func nikonSDRAMCaptureThroughTheStateMachine() async throws {
        let stack = VendorStack(
            Self.info(
                .nikon, "Nikon Corporation",
                [
                    OperationCode.Nikon.initiateCaptureRecInSdram, OperationCode.Nikon.deviceReady,
                    OperationCode.Nikon.getEvent,
                ]))
        defer { Task { await stack.stop() } }
        await stack.responder.configure {
            $0.nikonBusyInitiates = 1
            $0.nikonBusyReadies = 2
            $0.nikonEventReplies = [
                NikonEventList([]),
                NikonEventList([
                    .init(code: EventCode.Nikon.objectAddedInSdram, parameter: 0xFFFF_0001),
                    .init(code: EventCode.Nikon.captureCompleteRecInSdram, parameter: 0),
                ]),
            ]
            $0.objects[0xFFFF_0001] = Array(repeating: 0xAB, count: 1000)
        }
        let session = stack.session
        try await session.openSession()
        var sequence = NikonCaptureSequence(configuration: .init(pollInterval: .milliseconds(1)))
        var step = sequence.firstStep
        var downloaded: [[UInt8]] = []
        loop: for _ in 0..<50 {
            switch step {
            case .initiateCapture(let parameters, let delay):
                try await Task.sleep(for: delay)
                let accepted = try await session.nikonInitiateCaptureRecInSdram(
                    autofocus: .init(rawValue: parameters[0]))
                step = sequence.next(after: accepted ? .accepted : .busy)
            case .checkDeviceReady(let delay):
                try await Task.sleep(for: delay)
                step = sequence.next(after: try await session.nikonDeviceReady() ? .accepted : .busy)
            case .getEvents(let delay):
                try await Task.sleep(for: delay)
                step = sequence.next(after: .events(try await session.nikonGetEvents().events))
            case .download(let handles):
                for handle in handles {
                    _ = try await session.getObjectInfo(handle)
                    let sink = PTPMemorySink()
                    _ = try await session.getObject(handle, into: sink)
                    downloaded.append(await sink.bytes)
                }
                break loop
            case .failed(let reason):
                Issue.record("\(reason)")
                break loop
            }
        }
        #expect(downloaded == [Array(repeating: 0xAB, count: 1000)])
        let codes = await stack.responder.requests.map(\.code).filter { $0 != .openSession }
        #expect(
            codes == [
                OperationCode.Nikon.initiateCaptureRecInSdram, OperationCode.Nikon.initiateCaptureRecInSdram,
                OperationCode.Nikon.deviceReady, OperationCode.Nikon.deviceReady, OperationCode.Nikon.deviceReady,
                OperationCode.Nikon.getEvent, OperationCode.Nikon.getEvent, .getObjectInfo, .getObject,
            ])
    }

    @Test func nikonGetEventsExFeedsTheSequence() async throws {
        let stack = VendorStack(Self.info(.nikon, "Nikon Corporation", [OperationCode.Nikon.getEventEx]))
        defer { Task { await stack.stop() } }
        let reply = NikonEventListEx([
            .init(code: EventCode.Nikon.objectAddedInSdram, parameters: [0xFFFF_0001]),
            .init(code: EventCode.Nikon.captureCompleteRecInSdram, parameters: []),
        ])
        await stack.responder.configure { $0.nikonEventExReplies = [reply] }
        try await stack.session.openSession()
        let events = try await stack.session.nikonGetEventsEx()
        #expect(events == reply)
        var sequence = NikonCaptureSequence()
        _ = sequence.next(after: .accepted)
        _ = sequence.next(after: .accepted)
        #expect(
            sequence.next(after: .events(events.events.map(\.singleParameterEvent)))
                == .download([NikonCaptureSequence.sdramHandle]))
        #expect(try await stack.session.nikonGetEventsEx().events.isEmpty)
    }

    @Test func nikonBusyIsAnAnswerButOtherErrorsThrow() async throws {
        let stack = VendorStack(Self.info(.nikon, "Nikon Corporation", []))
        defer { Task { await stack.stop() } }
        await stack.responder.configure { $0.nikonBusyReadies = 1 }
        try await stack.session.openSession()
        #expect(try await stack.session.nikonDeviceReady() == false)
        #expect(try await stack.session.nikonDeviceReady() == true)
        await #expect(throws: PTPError(response: .operationNotSupported, operation: OperationCode.Nikon.afDrive)) {
            try await stack.session.execute(OperationCode.Nikon.afDrive)
        }
    }

    @Test func sonyHandshakeAndRawPlusJPEGCapture() async throws {
        let record = try #require(try Fixture("ptp-real/sony-a7s3_sdio-ext-deviceinfo.hex").records.first)
        guard case .data(_, _, let extInfo) = try USBContainer(usbEncoded: record.bytes) else {
            Issue.record("fixture is not a data container")
            return
        }
        let stack = VendorStack(
            Self.info(
                .sony, "Sony Corporation",
                [
                    OperationCode.Sony.sdioConnect, OperationCode.Sony.getSDIOExtDeviceInfo,
                    OperationCode.Sony.setControlDeviceB,
                ]))
        defer { Task { await stack.stop() } }
        await stack.responder.configure {
            $0.sonyExtDeviceInfo = extInfo
            $0.sonyShotObjects = 2
            $0.sonyPollsBeforeShot = 2
            $0.objects[SonyControl.capturedObjectHandle.rawValue] = [9, 9, 9]
        }
        let session = stack.session
        try await session.openSession()
        let info = try await session.sonyConnect()
        #expect(info.version == 0x12C && info.controls?.contains(SonyControl.fullPress) == true)
        let handshake = await stack.responder.requests.dropFirst().map { [UInt32($0.code.rawValue)] + $0.parameters }
        #expect(handshake == [[0x9201, 1, 0, 0], [0x9201, 2, 0, 0], [0x9202, 0x12C, 1], [0x9201, 3, 0, 0]])

        var sequence = SonyCaptureSequence(configuration: .init(pollInterval: .milliseconds(1)))
        var step = sequence.firstStep
        var downloads = 0
        loop: for _ in 0..<50 {
            switch step {
            case .press(let control, let value):
                try await session.sonyPress(SonyControl.Press(control: control, value: value))
                step = sequence.next(after: .done)
            case .pollPendingObjects(let delay):
                try await Task.sleep(for: delay)
                step = sequence.next(after: .pendingObjects(try await session.sonyPendingObjectCount()))
            case .download(let handle):
                _ = try await session.getObjectInfo(handle)
                _ = try await session.getObject(handle, into: PTPMemorySink())
                downloads += 1
                step = sequence.next(after: .done)
            case .finished:
                break loop
            case .failed(let reason):
                Issue.record("\(reason)")
                break loop
            }
        }
        #expect(downloads == 2 && sequence.downloadCount == 2)
        #expect(await stack.responder.sonyPresses == SonyControl.shutterSequence)
        #expect(await stack.responder.dataOut[OperationCode.Sony.setControlDeviceB]?.first == [2, 0])
    }

    @Test func fujifilmChangeList() async throws {
        let stack = VendorStack(Self.info(.fujifilm, "FUJIFILM", [.initiateCapture]))
        defer { Task { await stack.stop() } }
        let changes = FujifilmPropertyChangeList([.init(property: DevicePropertyCode(rawValue: 0xD222), value: 1)])
        await stack.responder.configure { $0.fujifilmChanges = changes }
        try await stack.session.openSession()
        #expect(try await stack.session.fujifilmGetPropertyChanges() == changes)
    }
}
