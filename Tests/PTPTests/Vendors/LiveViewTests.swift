import PTP
import Testing
import WireFormat

/// The live view wrappers and choices of `LiveView.swift`, against libgphoto2's reading of them.
@Suite struct LiveViewTests {
    /// A small stand-in JPEG: SOI, an APP0 with an FF D9 pair inside it (as an EXIF thumbnail would hold), EOI.
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x06, 0xFF, 0xD9, 0x12, 0x34, 0xFF, 0xD9]

    @Test func locatesTheWholeJPEG() throws {
        let data: [UInt8] = [1, 2, 0xFF, 3] + Self.jpeg + [0, 0]
        let range = try #require(LiveViewJPEG.locate(in: data[...]))
        #expect(Array(data[range]) == Self.jpeg)
        #expect(LiveViewJPEG.isWholeJPEG(data[range]))
        #expect(LiveViewJPEG.locate(in: [0xFF, 0xD8, 1, 2][...]) == nil)
        #expect(LiveViewJPEG.locate(in: [1, 2, 3][...]) == nil)
    }

    @Test func canonRecordsRoundTripAndTheJPEGRecordIsFound() throws {
        // A focus record (type 4) first, as the bodies send more than the JPEG; libgphoto2 skips unknown types.
        let data = CanonEOSViewFinderData(records: [
            .init(type: 4, payload: [9, 9, 9, 9][...]), .init(type: 1, payload: Self.jpeg[...]),
        ]).ptpEncoded
        #expect(data.count == 8 + 4 + 8 + Self.jpeg.count)
        #expect(Array(data[0..<8]) == [12, 0, 0, 0, 4, 0, 0, 0])
        let decoded = try CanonEOSViewFinderData(ptpEncoded: data)
        #expect(decoded.records.map(\.type) == [4, 1])
        #expect(try Array(#require(decoded.jpeg)) == Self.jpeg)
        // Type 11 is a JPEG too; type 9 (movie mode) is not.
        let alternate = try CanonEOSViewFinderData(
            ptpEncoded: CanonEOSViewFinderData(records: [.init(type: 9, payload: [1][...]), .init(type: 11, payload: Self.jpeg[...])]).ptpEncoded)
        #expect(try Array(#require(alternate.jpeg)) == Self.jpeg)
    }

    @Test func canonRecordLengthsAreChecked() {
        // A zero length would make a trusting reader loop forever.
        #expect(throws: WireError(.invalidValue)) { try CanonEOSViewFinderData(ptpEncoded: [0, 0, 0, 0, 1, 0, 0, 0]) }
        #expect(throws: WireError(.truncated)) { try CanonEOSViewFinderData(ptpEncoded: [20, 0, 0, 0, 1, 0, 0, 0, 1]) }
        #expect(throws: WireError(.truncated)) { try CanonEOSViewFinderData(ptpEncoded: [20, 0, 0]) }
    }

    @Test func canonOutputDeviceAndDriveLens() {
        // libgphoto2 sets 2 (PC) when no bit but the screen's is set.
        #expect(CanonEOSLiveView.outputDeviceValue(current: 0) == 2)
        #expect(CanonEOSLiveView.outputDeviceValue(current: 1) == 2)
        #expect(CanonEOSLiveView.outputDeviceValue(current: 2) == nil)
        #expect(CanonEOSLiveView.outputDeviceValue(current: 3) == nil)
        #expect(CanonEOSLiveView.driveLensParameter(towardsFar: false, size: 2) == 2)
        #expect(CanonEOSLiveView.driveLensParameter(towardsFar: true, size: 3) == 0x8003)
        #expect(CanonEOSLiveView.driveLensParameter(towardsFar: true, size: 9) == 0x8003)
        #expect(CanonEOSLiveView.driveLensStep(0x8001) == 1)
        #expect(CanonEOSLiveView.driveLensStep(3) == -3)
        #expect(CanonEOSLiveView.driveLensStep(0) == nil)
        #expect(CanonEOSLiveView.driveLensStep(0x8004) == nil)
    }

    @Test func nikonHeaderIsSkippedBySizeOrFoundBySOI() throws {
        let frame = NikonLiveViewImage.encode(jpeg: Self.jpeg, width: 640, height: 424, wholeWidth: 8256, wholeHeight: 5504)
        #expect(frame.count == 384 + Self.jpeg.count)
        #expect(Array(frame[0..<8]) == [0x02, 0x80, 0x01, 0xA8, 0x20, 0x40, 0x15, 0x80])
        let image = try NikonLiveViewImage(ptpEncoded: frame, headerSize: 384)
        #expect(Array(image.jpeg) == Self.jpeg)
        #expect(image.header.count == 384)
        #expect(image.jpegSize?.width == 640 && image.jpegSize?.height == 424)
        // The wrong header size: found by its SOI, as libgphoto2 does.
        let found = try NikonLiveViewImage(ptpEncoded: frame, headerSize: 64)
        #expect(Array(found.jpeg) == Self.jpeg)
        #expect(found.header.count == 384)
        let small = NikonLiveViewImage.encode(jpeg: Self.jpeg, width: 1, height: 1, wholeWidth: 1, wholeHeight: 1, headerSize: 64)
        #expect(try NikonLiveViewImage(ptpEncoded: small, headerSize: 64).header.count == 64)
        #expect(throws: WireError(.invalidValue)) { try NikonLiveViewImage(ptpEncoded: [UInt8](repeating: 0, count: 400), headerSize: 384) }
    }

    @Test func nikonHeaderSizePerBody() {
        #expect(NikonLiveViewImage.headerSize(model: "D850") == 384)
        #expect(NikonLiveViewImage.headerSize(model: "NIKON Z 6") == 384)
        #expect(NikonLiveViewImage.headerSize(model: "D700") == 64)
        #expect(NikonLiveViewImage.headerSize(model: "Nikon D3X") == 64)
    }

    @Test func nikonProhibitReasonsInLibgphoto2Order() {
        #expect(NikonLiveView.prohibitReason(0) == nil)
        // Battery (bit 8) comes before the sequence error (bit 2).
        #expect(NikonLiveView.prohibitReason(1 << 8 | 1 << 2) == "battery exhausted")
        #expect(NikonLiveView.prohibitReason(1 << 12) == "pending unretrieved SDRAM image")
        #expect(NikonLiveView.prohibitReason(1 << 30) == "code 0x40000000")
    }

    @Test func sonyOffsetIsUsedAndFF_D8InTheHeaderIsSkipped() throws {
        var object = SonyLiveViewImage.encode(jpeg: Self.jpeg)
        #expect(object.count == SonyLiveViewImage.emulatedHeaderSize + Self.jpeg.count)
        // gphoto2 issue 389: FF D8 inside the header.
        object[20] = 0xFF
        object[21] = 0xD8
        let image = try SonyLiveViewImage(ptpEncoded: object)
        #expect(Array(image.jpeg) == Self.jpeg)
        #expect(image.header.count == SonyLiveViewImage.emulatedHeaderSize)
        // An offset that points nowhere: the SOI scan.
        var wrong = SonyLiveViewImage.encode(jpeg: Self.jpeg)
        wrong[0] = 7
        #expect(Array(try SonyLiveViewImage(ptpEncoded: wrong).jpeg) == Self.jpeg)
        #expect(throws: WireError(.invalidValue)) { try SonyLiveViewImage(ptpEncoded: [8, 0, 0, 0, 0, 0, 0, 0, 1]) }
    }

    @Test func protocolPerFamily() {
        let canon = [OperationCode.Canon.getViewFinderData]
        #expect(LiveViewProtocol.select(family: .canonEOS, operations: canon) == .success(.canonEOS))
        #expect((try? LiveViewProtocol.select(family: .canonEOS, operations: []).get()) == nil)
        let nikon = [OperationCode.Nikon.startLiveView, OperationCode.Nikon.getLiveViewImage]
        #expect(LiveViewProtocol.select(family: .nikon, operations: nikon) == .success(.nikon))
        #expect((try? LiveViewProtocol.select(family: .nikon, operations: [OperationCode.Nikon.startLiveView]).get()) == nil)
        #expect(LiveViewProtocol.select(family: .sony, operations: []) == .success(.sony))
        #expect(LiveViewProtocol.select(family: .fujifilm, operations: [.initiateOpenCapture]) == .success(.fujifilm))
        guard case .failure(let reason) = LiveViewProtocol.select(family: .generic, operations: [.initiateCapture]) else {
            Issue.record("a generic camera has no live view")
            return
        }
        #expect(reason.description.contains("PTP (ISO 15740) has none"))
    }

    @Test func focusSteps() {
        #expect(FocusStepSize.allCases.map(\.canonDriveLensSize) == [1, 2, 3])
        #expect(FocusStepSize.allCases.map(\.sonyStep) == [1, 3, 7])
        #expect(FocusStepSize.small.nikonSteps < FocusStepSize.large.nikonSteps)
    }
}
