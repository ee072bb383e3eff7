import PTP
import Testing
import WireFormat

/// Nikon GetEvent and the Nikon SDRAM capture (libgphoto2 `ptp_unpack_Nikon_EC`, `camera_nikon_capture`).
@Suite struct NikonEventListTests {
    static let bytes: [UInt8] = hexBytes(
        """
        02 00                    // count 2
        01 C1  01 00 FF FF       // ObjectAddedInSdram, handle 0xFFFF0001
        02 C1  00 00 00 00       // CaptureCompleteRecInSdram, 0
        """)

    @Test func decodesAndReencodes() throws {
        let list = try NikonEventList(ptpEncoded: Self.bytes)
        #expect(
            list.events == [
                .init(code: EventCode.Nikon.objectAddedInSdram, parameter: 0xFFFF_0001),
                .init(code: EventCode.Nikon.captureCompleteRecInSdram, parameter: 0),
            ])
        #expect(list.ptpEncoded == Self.bytes)
        #expect(list.events[0].description == "Nikon.ObjectAddedInSdram(0xFFFF0001)")
    }

    @Test func rejectsEveryTruncation() {
        for length in 0..<Self.bytes.count {
            #expect(throws: WireError(.truncated), "prefix of \(length) bytes") {
                try NikonEventList(ptpEncoded: Array(Self.bytes.prefix(length)))
            }
        }
    }

    @Test func rejectsACountLargerThanTheData() {
        #expect(throws: WireError(.truncated)) { try NikonEventList(ptpEncoded: [0xFF, 0xFF, 1, 2, 3, 4, 5, 6]) }
    }

    @Test func emptyListIsTwoBytes() throws {
        #expect(try NikonEventList(ptpEncoded: [0, 0]).events.isEmpty)
    }
}

/// Nikon GetEventEx (libgphoto2 `ptp_unpack_Nikon_EC_EX`).
@Suite struct NikonEventListExTests {
    static let bytes: [UInt8] = hexBytes(
        """
        03 00  00 00             // count 3, 16 bits not interpreted
        01 C1  01 00  01 00 FF FF  // ObjectAddedInSdram, 1 parameter: 0xFFFF0001
        06 40  02 00  07 50 00 00  02 00 00 00  // DevicePropChanged, 2 parameters
        02 C1  00 00             // CaptureCompleteRecInSdram, no parameters
        """)

    @Test func decodesAndReencodes() throws {
        let list = try NikonEventListEx(ptpEncoded: Self.bytes)
        #expect(
            list.events == [
                .init(code: EventCode.Nikon.objectAddedInSdram, parameters: [0xFFFF_0001]),
                .init(code: .devicePropChanged, parameters: [0x5007, 2]),
                .init(code: EventCode.Nikon.captureCompleteRecInSdram, parameters: []),
            ])
        #expect(list.ptpEncoded == Self.bytes)
        #expect(
            list.events.map(\.singleParameterEvent).last
                == NikonEventList.Event(code: EventCode.Nikon.captureCompleteRecInSdram, parameter: 0))
    }

    @Test func rejectsEveryTruncation() {
        for length in 0..<Self.bytes.count {
            #expect(throws: WireError(.truncated), "prefix of \(length) bytes") {
                try NikonEventListEx(ptpEncoded: Array(Self.bytes.prefix(length)))
            }
        }
    }

    @Test func rejectsMoreThanFiveParameters() {
        #expect(throws: WireError(.invalidValue)) {
            try NikonEventListEx(ptpEncoded: [1, 0, 0, 0, 0x01, 0xC1, 6, 0] + Array(repeating: 0, count: 24))
        }
    }
}

@Suite struct NikonCaptureSequenceTests {
    typealias Sequence = NikonCaptureSequence

    @Test func busyCameraIsPolledUntilTheShotIsAnnounced() {
        var sequence = Sequence(configuration: .init(pollInterval: .milliseconds(10)))
        #expect(sequence.firstStep == .initiateCapture(parameters: [0xFFFF_FFFF], delay: .zero))
        #expect(sequence.next(after: .busy) == .initiateCapture(parameters: [0xFFFF_FFFF], delay: .milliseconds(10)))
        #expect(sequence.next(after: .accepted) == .checkDeviceReady(delay: .milliseconds(10)))
        #expect(sequence.next(after: .busy) == .checkDeviceReady(delay: .milliseconds(10)))
        #expect(sequence.next(after: .accepted) == .getEvents(delay: .zero))
        #expect(sequence.next(after: .events([])) == .getEvents(delay: .milliseconds(10)))
        let added = NikonEventList.Event(code: EventCode.Nikon.objectAddedInSdram, parameter: 0xFFFF_0002)
        let complete = NikonEventList.Event(code: EventCode.Nikon.captureCompleteRecInSdram, parameter: 0)
        #expect(sequence.next(after: .events([added, complete])) == .download([ObjectHandle(rawValue: 0xFFFF_0002)]))
        #expect(sequence.next(after: .accepted) == .failed(reason: "the sequence had already finished"))
    }

    @Test func captureCompleteWithoutObjectUsesTheSDRAMHandle() {
        var sequence = Sequence()
        _ = sequence.next(after: .accepted)
        _ = sequence.next(after: .accepted)
        let complete = NikonEventList.Event(code: .captureComplete, parameter: 0)
        #expect(sequence.next(after: .events([complete])) == .download([Sequence.sdramHandle]))
    }

    @Test func handleZeroMeansTheSDRAMHandle() {
        var sequence = Sequence(configuration: .init(settlePolls: 1))
        _ = sequence.next(after: .accepted)
        _ = sequence.next(after: .accepted)
        let added = NikonEventList.Event(code: EventCode.Nikon.objectAddedInSdram, parameter: 0)
        #expect(sequence.next(after: .events([added])) == .getEvents(delay: .milliseconds(50)))
        #expect(sequence.next(after: .events([])) == .download([Sequence.sdramHandle]))
    }

    @Test func rawPlusJPEGDownloadsBothObjects() {
        var sequence = Sequence(configuration: .init(settlePolls: 2))
        _ = sequence.next(after: .accepted)
        _ = sequence.next(after: .accepted)
        let nef = NikonEventList.Event(code: EventCode.Nikon.objectAddedInSdram, parameter: 0xFFFF_0001)
        let jpeg = NikonEventList.Event(code: .objectAdded, parameter: 0xFFFF_0002)
        #expect(sequence.next(after: .events([nef])) == .getEvents(delay: .milliseconds(50)))
        #expect(sequence.next(after: .events([jpeg, nef])) == .getEvents(delay: .milliseconds(50)))
        #expect(sequence.next(after: .events([])) == .getEvents(delay: .milliseconds(50)))
        #expect(
            sequence.next(after: .events([])) == .download([Sequence.sdramHandle, ObjectHandle(rawValue: 0xFFFF_0002)]))
    }

    @Test func givesUpAfterMaxPolls() {
        var sequence = Sequence(configuration: .init(maxPolls: 3))
        _ = sequence.next(after: .accepted)
        #expect(sequence.next(after: .busy) == .checkDeviceReady(delay: .milliseconds(50)))
        #expect(sequence.next(after: .busy) == .checkDeviceReady(delay: .milliseconds(50)))
        #expect(sequence.next(after: .busy) == .failed(reason: "DeviceReady still busy after 3 polls"))
    }

    @Test func rejectsOutcomesThatDoNotFitTheStep() {
        var sequence = Sequence()
        #expect(sequence.next(after: .events([])) == .failed(reason: "unexpected events([]) while initiating"))
    }

    @Test func autofocusParameter() {
        #expect(
            Sequence(configuration: .init(autofocus: .beforeCapture)).firstStep
                == .initiateCapture(parameters: [0xFFFF_FFFE], delay: .zero))
    }

    @Test func propertyTables() {
        #expect(NikonImageQuality.property.rawValue == 0x5004 && NikonRawBitMode.property.rawValue == 0xD149)
        #expect(NikonRawBitMode.fourteenBit.bitsPerSample == 14 && NikonRawBitMode.twelveBit.description == "12 bit")
        #expect(NikonRecordingMedia.sdram.rawValue == 1 && NikonRecordingMedia.property.rawValue == 0xD10B)
    }
}
