import Foundation
import PTP
import PTPUSB
import Testing

@testable import RawcapCLI

/// `rawcap info`'s report: gathered over the in-memory USB pipe from a scripted camera, rendered as text and JSON.
@Suite struct CameraInfoReportTests {
    /// A camera that answers from a table: each operation's reply, and per-property replies.
    actor ScriptedCamera: PTPResponder {
        let info: DeviceInfo
        var replies: [OperationCode: PTPResponderReply] = [:]
        var propertyReplies: [UInt32: PTPResponderReply] = [:]

        init(_ info: DeviceInfo) { self.info = info }

        func set(_ code: OperationCode, _ reply: PTPResponderReply) { replies[code] = reply }
        func set(property: DevicePropertyCode, _ reply: PTPResponderReply) {
            propertyReplies[UInt32(property.rawValue)] = reply
        }

        func respond(to request: PTPRequest, dataOut: [UInt8]?) async -> PTPResponderReply {
            if request.code == .getDevicePropDesc, let reply = propertyReplies[request.parameters.first ?? 0] {
                return reply
            }
            if let reply = replies[request.code] { return reply }
            return request.code == .getDeviceInfo ? .dataset(info) : PTPResponderReply()
        }
    }

    static let nikon = DeviceInfo(
        standardVersion: 100, vendorExtensionID: .nikon, vendorExtensionVersion: 100,
        vendorExtensionDesc: "Nikon\u{1}PTP",
        operationsSupported: [
            .getDeviceInfo, .openSession, .getStorageIDs,
            .getStorageInfo, .getDevicePropDesc, OperationCode(rawValue: 0x90C7),
        ],
        eventsSupported: [.objectAdded], devicePropertiesSupported: [.batteryLevel, .fNumber, .dateTime],
        captureFormats: [.exifJPEG], imageFormats: [.exifJPEG, ObjectFormatCode(rawValue: 0x3000)],
        manufacturer: "Nikon Corporation", model: "Z 8", deviceVersion: "V2.00", serialNumber: "3007771")

    static func gather(_ camera: ScriptedCamera) async throws -> CameraInfoReport {
        let pipe = InMemoryBulkPipe()
        let device = USBDeviceSide(pipe: pipe, responder: camera)
        let running = Task { await device.run() }
        defer { running.cancel() }
        let session = PTPSession(transport: PTPUSBTransport(pipe: pipe), configuration: .init(timeout: .seconds(2)))
        let report = try await CameraInfoReport.gather(session: session, link: nil)
        await pipe.disconnect()
        return report
    }

    @Test func refusalsAndUndecodableDescriptionsAreRecordedAndTheReportGoesOn() async throws {
        let camera = ScriptedCamera(Self.nikon)
        await camera.set(
            .getStorageIDs,
            .dataset(StorageIDArray([StorageID(rawValue: 0x0001_0001), StorageID(rawValue: 0x0002_0001)])))
        await camera.set(.getStorageInfo, PTPResponderReply(.storeNotAvailable))
        await camera.set(
            property: .batteryLevel,
            .dataset(
                DevicePropDesc(
                    propertyCode: .batteryLevel, dataType: .uint8, getSet: 0, factoryDefaultValue: .uint8(100),
                    currentValue: .uint8(50), form: .enumeration([.uint8(0), .uint8(50), .uint8(100)]))))
        await camera.set(property: .fNumber, .data([0x07, 0x50, 0x04]))  // truncated after the data type
        await camera.set(property: .dateTime, PTPResponderReply(.accessDenied))
        let report = try await Self.gather(camera)

        #expect(report.device.model == "Z 8")
        #expect(report.device.vendorExtension.name == "Nikon")
        #expect(report.operations.last == .init(code: "0x90C7", name: "Nikon.GetEvent"))
        #expect(report.storages.map(\.error) == Array(repeating: "refused by the camera: StoreNotAvailable", count: 2))
        #expect(report.properties.map(\.name) == ["BatteryLevel", "FNumber", "DateTime"])
        #expect(report.properties[0].current?.description == "50")
        #expect(report.properties[1].error?.hasPrefix("unreadable description") == true)
        #expect(report.properties[2].error == "refused by the camera: AccessDenied")

        let text = report.text()
        #expect(text.contains("PTP           1.00, vendor extension Nikon (0x0000000A) 1.00 \"Nikon?PTP\""))
        #expect(text.contains("  0x00010001  refused by the camera: StoreNotAvailable"))
        #expect(text.contains(#/battery\s+50\s+read-only\s+one of 0, 50, 100\s+BatteryLevel 0x5001/#))
        #expect(text.contains(#/BatteryLevel\s+0x5001\s+50\s+read-only\s+one of 0, 50, 100/#) == false)
        #expect(report.text(verbose: true).contains(#/BatteryLevel\s+0x5001\s+50\s+read-only\s+one of 0, 50, 100/#))
        #expect(text.contains("  images   EXIF_JPEG, Undefined"))
        #expect(!text.contains("Camera "), "no link line without a transport")
    }

    @Test func aRefusedSessionLeavesDeviceInfoAndANote() async throws {
        let camera = ScriptedCamera(Self.nikon)
        await camera.set(.openSession, PTPResponderReply(.deviceBusy))
        let report = try await Self.gather(camera)
        #expect(report.storages.isEmpty && report.properties.isEmpty)
        #expect(report.notes.count == 1)
        #expect(report.notes.first?.contains("refused OpenSession") == true)
        #expect(report.text().contains("Notes\n  The camera refused OpenSession"))
    }

    @Test func jsonKeysAreStableAndValuesTyped() throws {
        var report = CameraInfoReport(Self.nikon, link: nil)
        report.properties = [
            .init(
                code: "0x5003", name: "ImageSize", type: "STR", writable: true, current: .text("8256x5504"),
                factoryDefault: .text("8256x5504"), allowed: .values([.text("8256x5504"), .text("4128x2752")])),
            .init(
                code: "0x5010", name: "ExposureBiasCompensation", type: "INT16", writable: true,
                current: .signed(-300), factoryDefault: .signed(0),
                allowed: .range(minimum: .signed(-5000), maximum: .signed(5000), step: .signed(333))),
        ]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(report), as: UTF8.self)
        #expect(
            json.hasPrefix(
                #"{"captureFormats":[{"code":"0x3801","name":"EXIF_JPEG"}],"device":{"functionalMode":0,"manufacturer":"Nikon Corporation","model":"Z 8","ptpVersion":"1.00","serialNumber":"3007771","vendorExtension":{"cameraVendor":"Nikon","description":"Nikon\u0001PTP","id":"0x0000000A","name":"Nikon","version":"1.00"},"version":"V2.00"},"events":"#
            ))
        #expect(
            json.contains(
                #"{"allowed":{"values":["8256x5504","4128x2752"]},"code":"0x5003","current":"8256x5504","factoryDefault":"8256x5504","name":"ImageSize","type":"STR","writable":true}"#
            ))
        #expect(
            json.contains(
                #""allowed":{"range":{"maximum":5000,"minimum":-5000,"step":333}},"code":"0x5010","current":-300"#))
        #expect(!json.contains("\"camera\""), "no link, no key")
    }
}
