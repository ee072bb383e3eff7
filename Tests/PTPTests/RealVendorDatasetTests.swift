import Foundation
import PTP
import TestSupport
import Testing
import WireFormat

/// Vendor datasets real cameras sent (Fixtures/ptp-real, transcribed from Rocc's MIT-licensed PTP/IP fixtures):
/// Canon EOS GetEvent records, Canon EOS R's DeviceInfo, Sony's SDIO ext device info and all-property dump.
@Suite struct RealVendorDatasetTests {
    /// The payload of the PTP/IP Data or End Data packet for transaction `transactionID` in a packet transcription.
    private func dataPhase(_ path: String, transactionID: UInt32, code: OperationCode) throws -> [UInt8] {
        let packets = try Fixture(path).records.map { try PTPIPPacket(ptpipEncoded: $0.bytes) }
        var open: UInt32?
        var bytes: [UInt8] = []
        for packet in packets {
            switch packet {
            case .operationRequest(_, let request, let id, _) where request == code && id == transactionID:
                open = id
                bytes = []
            case .data(let id, let payload) where id == open, .endData(let id, let payload) where id == open:
                bytes += payload
            case .operationResponse(_, let id, _) where id == open:
                return bytes
            default:
                continue
            }
        }
        throw FixtureError(message: "no \(code) with transaction \(transactionID) in \(path)")
    }

    @Test func canonEOSRGetEventRecordsDecode() throws {
        let bytes = try #require(try Fixture("ptp-real/canon-eos-r_getevent.hex").records.first).bytes
        #expect(bytes.count == 11628)
        let list = try CanonEOSEventList(ptpEncoded: bytes)
        #expect(list.events.count == 261)
        let byType = Dictionary(grouping: list.events, by: \.type).mapValues(\.count)
        #expect(byType == [0xC189: 135, 0xC18A: 124, 0xC1A4: 1, 0xC19D: 1])
        #expect(list.transferRequests.isEmpty && list.objectsAdded.isEmpty)
        let values = list.propertyValues
        // The lens and the body name themselves in string properties.
        #expect(values[0xD1D8].map { Array($0.prefix(16)) } == Array("EF50mm f/1.8 STM".utf8))
        #expect(values[0xD125].map { Array($0.prefix(4)) } == Array("EOSR".utf8))
        var iso: CanonEOSAvailableList?
        for case .availableListChanged(let list) in list.events where list.propertyCode == 0xD103 { iso = list }
        let isoValues = try #require(iso?.uint32Values)
        #expect(isoValues.count == 29 && isoValues.first == 0 && isoValues.last == 0x8D)
        // Whatever rawcap does not model is kept byte for byte: re-encoding gives the camera's bytes back.
        #expect(list.ptpEncoded == bytes)
    }

    /// The real replies fed to the capture state machines: an EOS GetEvent full of property records is "no shot
    /// yet" (keep polling), and so is a Sony property dump whose ObjectInfo count is 0.
    @Test func realRepliesKeepTheCaptureSequencesPolling() throws {
        let info = try DeviceInfo(
            ptpEncoded: try dataPhase("ptp-real/canon-eos-r_ptpip-connect.hex", transactionID: 2, code: .getDeviceInfo))
        let events = try CanonEOSEventList(
            ptpEncoded: try #require(try Fixture("ptp-real/canon-eos-r_getevent.hex").records.first).bytes)
        var canon = CanonEOSCaptureSequence(info: info, configuration: .init(pollInterval: .zero))
        #expect(canon.firstStep == .operation(OperationCode.Canon.remoteReleaseOn, parameters: [3, 1]))
        #expect(canon.next(after: .done) == .operation(OperationCode.Canon.remoteReleaseOff, parameters: [3]))
        #expect(canon.next(after: .done) == .getEvents(delay: .zero))
        #expect(canon.next(after: .events(events)) == .getEvents(delay: .zero))

        let all = try SonyAllDevicePropData(
            ptpEncoded: try dataPhase(
                "ptp-real/sony-dsc-rx100m7_ptpip-sdio-allprops.hex", transactionID: 4,
                code: OperationCode.Sony.getAllDevicePropData))
        guard case .uint16(let inMemory)? = all[SonyControl.pendingObjectsProperty]?.currentValue else {
            Issue.record("ObjectInMemory is not a UINT16")
            return
        }
        var sony = SonyCaptureSequence(configuration: .init(pollInterval: .zero, autofocus: false))
        #expect(sony.firstStep == .press(control: SonyControl.fullPress, value: 2))
        var step = sony.next(after: .done)
        while case .press = step { step = sony.next(after: .done) }
        #expect(step == .pollPendingObjects(delay: .zero))
        #expect(
            sony.next(after: .pendingObjects(SonyControl.pendingObjectCount(inMemory)))
                == .pollPendingObjects(delay: .zero))
    }

    @Test func canonEOSRDeviceInfoFromPTPIP() throws {
        let bytes = try dataPhase("ptp-real/canon-eos-r_ptpip-connect.hex", transactionID: 2, code: .getDeviceInfo)
        #expect(bytes.count == 573)
        let info = try DeviceInfo(ptpEncoded: bytes)
        #expect(info.manufacturer == "Canon.Inc" && info.model == "Canon EOS R" && info.deviceVersion == "3-1.6.0")
        #expect(info.vendorExtensionID == .microsoft && info.operationsSupported.count == 170)
        #expect(info.supports(.Canon.remoteReleaseOn) && info.supports(.Canon.getEvent))
        #expect(info.eventsSupported.contains(EventCode.Canon.objectAddedEx))
        #expect(CameraFamily.identify(info).family == .canonEOS)
        #expect(info.ptpEncoded == bytes)
    }

    @Test func sonyRX100M7ExtDeviceInfoAndAllProperties() throws {
        let path = "ptp-real/sony-dsc-rx100m7_ptpip-sdio-allprops.hex"
        let ext = try SonyExtDeviceInfo(
            ptpEncoded: try dataPhase(path, transactionID: 5, code: OperationCode.Sony.getSDIOExtDeviceInfo))
        #expect(ext.version == 0x12C && ext.properties.count == 78 && ext.controls?.count == 23)
        let dump = try dataPhase(path, transactionID: 4, code: OperationCode.Sony.getAllDevicePropData)
        #expect(dump.count == 3521)
        let all = try SonyAllDevicePropData(ptpEncoded: dump)
        #expect(all.descriptions.map(\.propertyCode) == ext.properties)
        #expect(all[DevicePropertyCode(rawValue: 0x5007)]?.currentValue == .uint16(0x0118))
        #expect(all[SonyControl.pendingObjectsProperty]?.currentValue == .uint16(0))
        #expect(try SonyAllDevicePropData(ptpEncoded: all.ptpEncoded) == all)
    }

    private func usbPayload(_ record: Fixture.Record) throws -> (OperationCode, [UInt8]) {
        guard case .data(let code, _, let payload) = try USBContainer(usbEncoded: record.bytes) else {
            throw FixtureError(message: "not a data container")
        }
        return (code, payload)
    }

    @Test func nikon1J3GetEventAndObjectInfo() throws {
        let records = try Fixture("ptp-real/nikon-1-j3_getevent-objectinfo.hex").records
        #expect(records.count == 2)
        let (eventCode, eventBytes) = try usbPayload(records[0])
        #expect(eventCode == OperationCode.Nikon.getEvent)
        let list = try NikonEventList(ptpEncoded: eventBytes)
        #expect(list.events.map(\.code) == [.captureComplete, .devicePropChanged])
        #expect(list.events.map(\.parameter) == [0x0A, 0xD100])
        #expect(list.ptpEncoded == eventBytes)
        // The real reply drives Nikon's state machine: CaptureComplete with no ObjectAddedInSdram means the shot is
        // at the SDRAM handle.
        var sequence = NikonCaptureSequence()
        _ = sequence.next(after: .accepted)
        _ = sequence.next(after: .accepted)
        #expect(sequence.next(after: .events(list.events)) == .download([NikonCaptureSequence.sdramHandle]))

        let (infoCode, infoBytes) = try usbPayload(records[1])
        #expect(infoCode == .getObjectInfo)
        let info = try ObjectInfo(ptpEncoded: infoBytes)
        #expect(info.filename == "DSC_4076.JPG" && info.objectFormat == .exifJPEG)
        #expect(info.storageID == StorageID(rawValue: 0x0001_0001) && info.objectCompressedSize == 464_475)
        #expect(info.imagePixWidth == 4608 && info.imagePixHeight == 3072)
        #expect(info.thumbFormat == .jfif && info.thumbCompressedSize == 4580)
        #expect(info.parentObject == ObjectHandle(rawValue: 0x1119_0000))
        #expect(info.captureDate == "20220602T113714")
        #expect(info.ptpEncoded == infoBytes)
    }

    /// Every transcription names its source, origin and camera, and the README's table lists it.
    @Test func everyRealDatasetNamesItsSource() throws {
        let folder = ExternalTool.packageRoot.appendingPathComponent("Fixtures/ptp-real")
        let readme = try String(contentsOf: folder.appendingPathComponent("README.md"), encoding: .utf8)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".hex") }
        #expect(files.count >= 12)
        for file in files {
            let header = try Fixture("ptp-real/\(file)").header.joined(separator: "\n")
            for field in ["# SOURCE: https://", "# ORIGIN:", "# CAMERA:"] {
                #expect(header.contains(field), "\(file) has \(field)")
            }
            #expect(readme.contains("`\(file)`"), "the README lists \(file)")
        }
    }
}
