import PTP
import Testing

@Suite struct CanonEOSCaptureSequenceTests {
    static let modern = DeviceInfo(
        operationsSupported: [
            OperationCode.Canon.getEvent, OperationCode.Canon.remoteReleaseOn, OperationCode.Canon.remoteReleaseOff,
        ], manufacturer: "Canon Inc.")
    static func request(_ handle: UInt32, _ name: String) -> CanonEOSTransferRequest {
        CanonEOSTransferRequest(
            handle: ObjectHandle(rawValue: handle), format: ObjectFormatCode(0xB103), byteCount: 10, filename: name)
    }

    @Test func rawPlusJPEGInTwoReplies() {
        var sequence = CanonEOSCaptureSequence(info: Self.modern, configuration: .init(pollInterval: .milliseconds(5)))
        #expect(sequence.firstStep == .operation(OperationCode.Canon.remoteReleaseOn, parameters: [3, 1]))
        #expect(sequence.next(after: .done) == .operation(OperationCode.Canon.remoteReleaseOff, parameters: [3]))
        #expect(sequence.next(after: .done) == .getEvents(delay: .milliseconds(5)))
        #expect(sequence.next(after: .events(CanonEOSEventList([]))) == .getEvents(delay: .milliseconds(5)))
        let raw = Self.request(1, "IMG_0001.CR2")
        let jpeg = Self.request(2, "IMG_0001.JPG")
        #expect(sequence.next(after: .events(CanonEOSEventList([.requestObjectTransfer(raw)]))) == .download(raw))
        #expect(sequence.next(after: .done) == .getEvents(delay: .zero))
        // The same request repeated is not downloaded twice; the new one is.
        #expect(
            sequence.next(
                after: .events(CanonEOSEventList([.requestObjectTransfer(raw), .requestObjectTransfer(jpeg)])))
                == .download(jpeg))
        #expect(sequence.next(after: .done) == .getEvents(delay: .zero))
        #expect(sequence.next(after: .events(CanonEOSEventList([]))) == .getEvents(delay: .milliseconds(5)))
        #expect(sequence.next(after: .events(CanonEOSEventList([]))) == .getEvents(delay: .milliseconds(5)))
        #expect(sequence.next(after: .events(CanonEOSEventList([]))) == .finished)
        #expect(sequence.requestedHandles == [ObjectHandle(rawValue: 1), ObjectHandle(rawValue: 2)])
    }

    @Test func olderBodiesUseRemoteRelease() {
        let old = DeviceInfo(operationsSupported: [OperationCode.Canon.getEvent, OperationCode.Canon.remoteRelease])
        var sequence = CanonEOSCaptureSequence(info: old)
        #expect(sequence.firstStep == .operation(OperationCode.Canon.remoteRelease, parameters: []))
        #expect(sequence.next(after: .done) == .getEvents(delay: .milliseconds(50)))
    }

    @Test func failsWhenNoShotArrives() {
        var sequence = CanonEOSCaptureSequence(info: Self.modern, configuration: .init(maxPolls: 2))
        _ = sequence.next(after: .done)
        _ = sequence.next(after: .done)
        #expect(sequence.next(after: .events(CanonEOSEventList([]))) == .getEvents(delay: .milliseconds(50)))
        #expect(
            sequence.next(after: .events(CanonEOSEventList([])))
                == .failed(reason: "no RequestObjectTransfer after 2 GetEvent polls"))
        #expect(sequence.next(after: .done) == .failed(reason: "the sequence had already finished"))
    }

    @Test func eventsBeforeTheReleaseFinishedDoNotFit() {
        var sequence = CanonEOSCaptureSequence(info: Self.modern)
        guard case .failed = sequence.next(after: .events(CanonEOSEventList([]))) else {
            Issue.record("events during the release must fail the sequence")
            return
        }
    }

    @Test func preparationSetsTheDestinationToTheHost() {
        #expect(
            CanonEOSCapture.preparation.contains(
                .setProperty(CanonEOSPropertyValue(property: DevicePropertyCode.Canon.eosCaptureDestination, uint32: 4))
            ))
        #expect(CanonEOSCapture.preparation.first == .operation(OperationCode.Canon.setRemoteMode, parameters: [1]))
    }
}
