import PTP
import Testing
import WireFormat

/// Sony property descriptions and GetAllDevicePropData (libgphoto2 `ptp_unpack_Sony_DPD`,
/// `ptp_sony_getalldevicepropdesc`).
@Suite struct SonyDevicePropDescTests {
    static let bytes: [UInt8] = hexBytes(
        """
        03 00 00 00 00 00 00 00  // count 3 (UINT64)
        15 D2                    // ObjectInMemory 0xD215
        04 00                    // UINT16
        00 01                    // GetSet 0, IsEnabled 1
        00 00                    // factory default 0
        01 80                    // current 0x8001: one shot waiting
        00                       // FormFlag none
        1E D2                    // ISO 0xD21E
        06 00                    // UINT32
        01 01                    // GetSet 1, IsEnabled 1
        00 00 00 00              // factory default 0
        64 00 00 00              // current 100
        02                       // FormFlag enumeration
        02 00  64 00 00 00  C8 00 00 00  // 2 values: 100, 200
        01 00  64 00 00 00       // second list (2024 bodies): 1 value, 100
        24 D2                    // ExposureCompensation 0xD224
        03 00                    // INT16
        01 02                    // GetSet 1, IsEnabled 2 (display only)
        00 00                    // factory default 0
        00 00                    // current 0
        01                       // FormFlag range
        D4 FE  2C 01  4D 01      // -300 … 300 step 333
        """)

    @Test func decodesAndReencodes() throws {
        let all = try SonyAllDevicePropData(ptpEncoded: Self.bytes)
        #expect(all.descriptions.count == 3)
        let pending = try #require(all[SonyControl.pendingObjectsProperty])
        #expect(pending.currentValue == .uint16(0x8001) && !pending.isSettable && pending.form == .none)
        let iso = try #require(all[DevicePropertyCode.Sony.iso])
        #expect(iso.form == .enumeration([.uint32(100), .uint32(200)]) && iso.secondaryValues == [.uint32(100)])
        #expect(iso.allowedValues == [.uint32(100)] && iso.isSettable)
        let compensation = try #require(all[DevicePropertyCode.Sony.exposureCompensation])
        #expect(compensation.form == .range(minimum: .int16(-300), maximum: .int16(300), step: .int16(333)))
        #expect(!compensation.isEnabled && !compensation.isSettable)
        #expect(all.ptpEncoded == Self.bytes)
    }

    @Test func rejectsEveryTruncation() {
        for length in 0..<Self.bytes.count {
            #expect(throws: WireError.self, "prefix of \(length) bytes") {
                try SonyAllDevicePropData(ptpEncoded: Array(Self.bytes.prefix(length)))
            }
        }
    }

    @Test func rejectsAHugeCountBeforeAllocating() {
        #expect(throws: WireError(.limitExceeded)) {
            try SonyAllDevicePropData(ptpEncoded: [0, 0, 0, 0, 0, 0, 0, 0x80] + Array(repeating: 0, count: 32))
        }
        #expect(throws: WireError(.truncated)) {
            try SonyAllDevicePropData(ptpEncoded: [0xFF, 0xFF, 0, 0, 0, 0, 0, 0] + Array(repeating: 0, count: 32))
        }
    }

    @Test func rejectsAnUnknownFormFlag() {
        var bytes = Self.bytes
        bytes[8 + 10] = 7  // ObjectInMemory's FormFlag
        #expect(throws: WireError(.invalidValue)) { try SonyAllDevicePropData(ptpEncoded: bytes) }
    }

    @Test func pendingObjectCount() {
        #expect(SonyControl.pendingObjectCount(0x8002) == 2)
        #expect(SonyControl.pendingObjectCount(0x8000) == 0 && SonyControl.pendingObjectCount(1) == 0)
    }

    /// The A7S III answered GetSDIOExtDeviceInfo with protocol 300 and lists the controls the capture presses.
    @Test func a7SIIIListsTheShutterControls() throws {
        let record = try #require(try Fixture("ptp-real/sony-a7s3_sdio-ext-deviceinfo.hex").records.first)
        guard case .data(let code, _, let payload) = try USBContainer(usbEncoded: record.bytes) else {
            Issue.record("not a data container")
            return
        }
        #expect(code == OperationCode.Sony.getSDIOExtDeviceInfo)
        let info = try SonyExtDeviceInfo(ptpEncoded: payload)
        #expect(info.version == UInt16(SonyProtocolVersion.v300.rawValue))
        let controls = try #require(info.controls)
        #expect(controls.contains(SonyControl.halfPress) && controls.contains(SonyControl.fullPress))
        #expect(info.properties.contains(SonyControl.pendingObjectsProperty))
    }
}

@Suite struct SonyCaptureSequenceTests {
    @Test func pressesThenDownloadsEveryPendingShot() {
        var sequence = SonyCaptureSequence(configuration: .init(pollInterval: .milliseconds(20)))
        var presses: [SonyControl.Press] = []
        var step = sequence.firstStep
        while case .press(let control, let value) = step {
            presses.append(SonyControl.Press(control: control, value: value))
            step = sequence.next(after: .done)
        }
        #expect(presses == SonyControl.shutterSequence)
        #expect(step == .pollPendingObjects(delay: .milliseconds(20)))
        #expect(sequence.next(after: .pendingObjects(0)) == .pollPendingObjects(delay: .milliseconds(20)))
        #expect(sequence.next(after: .pendingObjects(2)) == .download(SonyControl.capturedObjectHandle))
        #expect(sequence.next(after: .done) == .pollPendingObjects(delay: .zero))
        #expect(sequence.next(after: .pendingObjects(1)) == .download(SonyControl.capturedObjectHandle))
        #expect(sequence.next(after: .done) == .pollPendingObjects(delay: .zero))
        #expect(sequence.next(after: .pendingObjects(0)) == .finished)
        #expect(sequence.downloadCount == 2)
    }

    @Test func withoutAutofocusOnlyTheFullPressIsSent() {
        var sequence = SonyCaptureSequence(configuration: .init(autofocus: false))
        #expect(sequence.firstStep == .press(control: SonyControl.fullPress, value: SonyControl.pressed))
        #expect(sequence.next(after: .done) == .press(control: SonyControl.fullPress, value: SonyControl.released))
        #expect(sequence.next(after: .done) == .pollPendingObjects(delay: .milliseconds(50)))
    }

    @Test func givesUpWhenNoShotArrives() {
        var sequence = SonyCaptureSequence(configuration: .init(maxPolls: 2, autofocus: false))
        _ = sequence.next(after: .done)
        _ = sequence.next(after: .done)
        #expect(sequence.next(after: .pendingObjects(0)) == .pollPendingObjects(delay: .milliseconds(50)))
        #expect(
            sequence.next(after: .pendingObjects(0))
                == .failed(reason: "no shot in the buffer after 2 polls of ObjectInMemory"))
    }

    @Test func handshakeOrder() {
        #expect(
            SonySDIOPhase.sequence(version: .v200) == [
                .connect(.first), .connect(.second), .getExtDeviceInfo(.v200), .connect(.third),
            ])
        #expect(SonySDIOPhase.third.parameters == [3, 0, 0])
    }
}
