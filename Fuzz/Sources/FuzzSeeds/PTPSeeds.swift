import Foundation
import PTP

/// Seeds for the PTP fuzz targets: every container and packet type, every dataset with real camera bytes, and
/// whole device answers for the transports. Each seed starts with the target's selector byte.
enum PTPSeeds {
    static let guid = PTPIPGUID(Array(0x10..<0x20)) ?? PTPIPGUID.random()

    static func pattern(_ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) } }

    /// USB streams: each container type, a data phase with a glued response, the unknown length, device status.
    static func containers() -> [(String, [UInt8])] {
        let response = USBContainer.response(.ok, transactionID: 4, parameters: [1, 2]).usbEncoded
        let data = USBContainer.data(.getObject, transactionID: 4, payload: pattern(600)).usbEncoded
        let unknown = USBContainerHeader(length: 0xFFFF_FFFF, type: .data, code: 0x1009, transactionID: 4).usbEncoded
        return [
            ("command", [0] + USBContainer.command(.openSession, transactionID: 0, parameters: [1]).usbEncoded),
            ("response", [3] + response),
            ("event", [5] + USBContainer.event(.objectAdded, transactionID: 0xFFFF_FFFF, parameters: [9]).usbEncoded),
            ("data-glued-response", [11] + data + response),
            ("unknown-length", [12] + unknown + pattern(40) + response),
            ("empty-data", [1] + USBContainer.data(.sendObject, transactionID: 1, payload: []).usbEncoded),
            ("device-status", [2] + USBDeviceStatus(code: .deviceBusy, stalledEndpointAddresses: [0x81]).usbEncoded),
        ]
    }

    static let packets: [(String, PTPIPPacket)] = [
        ("init-command-request", .initCommandRequest(.init(guid: guid, friendlyName: "rawcap"))),
        ("init-command-ack", .initCommandAck(.init(connectionNumber: 1, guid: guid, friendlyName: "Camera"))),
        (
            "init-command-ack-no-version",
            .initCommandAck(.init(connectionNumber: 1, guid: guid, friendlyName: "C", protocolVersion: nil))
        ),
        ("init-event-request", .initEventRequest(connectionNumber: 1)),
        ("init-event-ack", .initEventAck),
        ("init-fail", .initFail(reason: .busy)),
        (
            "operation-request",
            .operationRequest(dataPhase: .noneOrIn, code: .getPartialObject, transactionID: 2, parameters: [1, 0, 100])
        ),
        ("operation-response", .operationResponse(code: .ok, transactionID: 2, parameters: [100])),
        ("event", .event(code: .objectAdded, transactionID: 0xFFFF_FFFF, parameters: [7])),
        ("start-data", .startData(transactionID: 2, totalLength: 100)),
        ("data", .data(transactionID: 2, payload: pattern(60))),
        ("cancel", .cancel(transactionID: 2)),
        ("end-data", .endData(transactionID: 2, payload: pattern(40))),
        ("probe-request", .probeRequest),
        ("probe-response", .probeResponse),
    ]

    /// PTP/IP streams: each packet type alone, and all of them in a row.
    static func ptpip() -> [(String, [UInt8])] {
        var seeds = packets.enumerated().map { index, entry in (entry.0, [UInt8(index)] + entry.1.ptpipEncoded) }
        seeds.append(("all", [7] + packets.flatMap { $0.1.ptpipEncoded }))
        return seeds
    }

    /// Datasets and values behind their selector byte, including the real camera fixtures.
    static func datasets() throws -> [(String, [UInt8])] {
        var seeds: [(String, [UInt8])] = []
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../../Fixtures/ptp-real")
        for file in try FileManager.default.contentsOfDirectory(atPath: fixtures.path).sorted()
        where file.hasSuffix(".hex") {
            let text = try String(contentsOf: fixtures.appendingPathComponent(file), encoding: .utf8)
            var records: [[UInt8]] = [[]]
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.trimmingCharacters(in: .whitespaces).isEmpty { records.append([]) }
                if line.hasPrefix("#") { continue }
                records[records.count - 1] += line.split(separator: " ").compactMap { UInt8($0, radix: 16) }
            }
            for (index, record) in records.filter({ $0.count > 12 }).enumerated() {
                let selector: UInt8
                let payload: [UInt8]
                if file.contains("ptpip") {
                    guard record.count > 12, record[4] == 10 else { continue }
                    (selector, payload) = (0, Array(record.dropFirst(12)))
                } else if file.contains("devicepropdesc") {
                    (selector, payload) = (0x83, Array(record.dropFirst(12)))
                } else if file.contains("objectinfo") {
                    (selector, payload) = (2, Array(record.dropFirst(12)))
                } else if file.contains("sdio") {
                    (selector, payload) = (6, Array(record.dropFirst(12)))
                } else {
                    (selector, payload) = (0, Array(record.dropFirst(12)))
                }
                seeds.append(("real-\(file.dropLast(4))-\(index)", [selector] + payload))
            }
        }
        seeds += [
            (
                "storage-info",
                [1] + StorageInfo(maxCapacity: 1 << 34, storageDescription: "SD", volumeLabel: "CARD").ptpEncoded
            ),
            (
                "object-info",
                [2] + ObjectInfo(objectFormat: .dng, filename: "A.DNG", captureDate: "20240102T123045.6").ptpEncoded
            ),
            (
                "prop-enum",
                [3]
                    + DevicePropDesc(
                        propertyCode: .exposureIndex, dataType: .uint16, factoryDefaultValue: .uint16(100),
                        currentValue: .uint16(400), form: .enumeration([.uint16(100), .uint16(400)])
                    ).ptpEncoded
            ),
            (
                "prop-range",
                [3]
                    + DevicePropDesc(
                        propertyCode: .exposureBiasCompensation, dataType: .int16, factoryDefaultValue: .int16(0),
                        currentValue: .int16(-1000),
                        form: .range(minimum: .int16(-3000), maximum: .int16(3000), step: .int16(333))
                    ).ptpEncoded
            ),
            (
                "prop-string",
                [3]
                    + DevicePropDesc(
                        propertyCode: .artist, dataType: .string, factoryDefaultValue: .string(""),
                        currentValue: .string("me")
                    ).ptpEncoded
            ),
            ("storage-ids", [4] + StorageIDArray([StorageID(rawValue: 0x0001_0001)]).ptpEncoded),
            ("handles", [5] + ObjectHandleArray([ObjectHandle(rawValue: 1), ObjectHandle(rawValue: 2)]).ptpEncoded),
            (
                "sony-ext",
                [6] + SonyExtDeviceInfo(version: 200, properties: [.Sony.iso], controls: [.Sony.capture]).ptpEncoded
            ),
            ("string", [8, 3, 0x61, 0, 0x62, 0, 0, 0]),
            ("date", [9] + Array("20120202T141654.0+0130".utf8)),
        ]
        seeds += vendorDatasets()
        let values: [PTPValue] = [
            .int8(-1), .uint16(400), .int64(-4), .uint128(PTPRaw128(low: 1, high: 2)),
            .array(.uint32, [.uint32(1), .uint32(2)]), .string("ISO"),
        ]
        for value in values {
            let type = value.dataType.rawValue
            seeds.append(("value-\(value.dataType)", [7, UInt8(type & 0xFF), UInt8(type >> 8)] + value.ptpEncoded))
        }
        return seeds
    }

    /// Device answers for one GetObject (transaction 5) and one GetDeviceInfo (transaction 6).
    static func transport() -> [(String, [UInt8])] {
        /// USB transfers in the target's script format: a length in units of 8 bytes, then the bytes.
        func transfers(_ chunks: [[UInt8]]) -> [UInt8] {
            chunks.flatMap { chunk -> [UInt8] in
                let padded = chunk + [UInt8](repeating: 0, count: (8 - chunk.count % 8) % 8)
                return [UInt8(padded.count / 8)] + padded
            }
        }
        let info = DeviceInfo(manufacturer: "Fuzz", model: "Seed").ptpEncoded
        let object = USBContainer.data(.getObject, transactionID: 5, payload: pattern(96)).usbEncoded
        let ok5 = USBContainer.response(.ok, transactionID: 5, parameters: []).usbEncoded
        let infoData = USBContainer.data(.getDeviceInfo, transactionID: 6, payload: info).usbEncoded
        let ok6 = USBContainer.response(.ok, transactionID: 6, parameters: []).usbEncoded
        let event = USBContainer.event(.objectAdded, transactionID: 0xFFFF_FFFF, parameters: [1]).usbEncoded
        let ack = PTPIPPacket.initCommandAck(.init(connectionNumber: 1, guid: guid, friendlyName: "C")).ptpipEncoded
        let ptpipObject = [
            PTPIPPacket.startData(transactionID: 5, totalLength: 96), .data(transactionID: 5, payload: pattern(50)),
            .endData(transactionID: 5, payload: Array(pattern(96)[50...])),
            .operationResponse(code: .ok, transactionID: 5, parameters: []),
            .startData(transactionID: 6, totalLength: UInt64(info.count)), .endData(transactionID: 6, payload: info),
            .operationResponse(code: .ok, transactionID: 6, parameters: []),
        ].flatMap(\.ptpipEncoded)
        return [
            (
                "usb-data-in",
                [0x22] + transfers([Array(object.prefix(64)), Array(object.dropFirst(64)) + ok5, event, infoData, ok6])
            ),
            ("usb-no-data", [0x01] + transfers([ok5, event, infoData + ok6])),
            ("usb-data-out", [0x12] + transfers([ok5, infoData, ok6])),
            ("usb-stall", [0x20, 0xFF] + transfers([object, ok5])),
            ("ptpip-data-in", [0xA3] + ack + ptpipObject),
            (
                "ptpip-data-out",
                [0x90] + ack + PTPIPPacket.operationResponse(code: .ok, transactionID: 5, parameters: []).ptpipEncoded
            ),
        ]
    }

    /// The vendor decoders' seeds (selector bit 0x40): one reply of each kind, built with the vendor encoders.
    static func vendorDatasets() -> [(String, [UInt8])] {
        let canon = CanonEOSEventList([
            .objectAdded(
                CanonEOSObjectAdded(
                    handle: ObjectHandle(rawValue: 0x9190_0001), storageID: StorageID(rawValue: 0x0001_0001),
                    format: ObjectFormatCode(0xB103), byteCount: 1000, parent: ObjectHandle(rawValue: 0x9090_0000),
                    filename: "IMG_0001.CR2")),
            .objectAdded(
                CanonEOSObjectAdded(
                    code: EventCode.Canon.objectAddedEx64, handle: ObjectHandle(rawValue: 2),
                    storageID: StorageID(rawValue: 1), format: ObjectFormatCode(0xB108), byteCount: 5,
                    parent: ObjectHandle(rawValue: 3), secondHandle: ObjectHandle(rawValue: 4), filename: "A.CR3")),
            .requestObjectTransfer(
                CanonEOSTransferRequest(
                    handle: ObjectHandle(rawValue: 0x9190_0002), format: ObjectFormatCode(0xB103), byteCount: 2000,
                    filename: "IMG_0002.CR2")),
            .propertyChanged(
                CanonEOSPropertyChange(property: DevicePropertyCode.Canon.eosISOSpeed, value: [0x48, 0, 0, 0])),
            .availableListChanged(
                CanonEOSAvailableList(property: DevicePropertyCode.Canon.eosISOSpeed, uint32Values: [0x48, 0x50])),
            .unknown(type: 0xC18B, payload: [1, 0, 0, 0]),
        ])
        let nikon = NikonEventList([
            .init(code: EventCode.Nikon.objectAddedInSdram, parameter: 0xFFFF_0001),
            .init(code: EventCode.Nikon.captureCompleteRecInSdram, parameter: 0),
        ])
        let iso = SonyDevicePropDesc(
            propertyCode: DevicePropertyCode.Sony.iso, dataType: .uint32, factoryDefaultValue: .uint32(0),
            currentValue: .uint32(100), form: .enumeration([.uint32(100), .uint32(200)]),
            secondaryValues: [.uint32(100)])
        let pending = SonyDevicePropDesc(
            propertyCode: DevicePropertyCode.Sony.objectInMemory, dataType: .uint16, getSet: 0,
            factoryDefaultValue: .uint16(0), currentValue: .uint16(0x8001))
        let compensation = SonyDevicePropDesc(
            propertyCode: DevicePropertyCode.Sony.exposureCompensation, dataType: .int16, isEnabledFlag: 2,
            factoryDefaultValue: .int16(0), currentValue: .int16(0),
            form: .range(minimum: .int16(-300), maximum: .int16(300), step: .int16(333)))
        let fuji = FujifilmPropertyChangeList([.init(property: DevicePropertyCode(rawValue: 0xD222), value: 1)])
        let nikonInfo = DeviceInfo(
            vendorExtensionID: .mtp, operationsSupported: [OperationCode.Nikon.initiateCaptureRecInSdram],
            manufacturer: "Nikon Corporation", model: "Z 8")
        return [
            ("vendor-canon-events", [0x40] + canon.ptpEncoded),
            ("vendor-canon-terminator", [0x40, 8, 0, 0, 0, 0, 0, 0, 0]),
            ("vendor-nikon-events", [0x41] + nikon.ptpEncoded),
            ("vendor-sony-all", [0x42] + SonyAllDevicePropData([pending, iso, compensation]).ptpEncoded),
            ("vendor-sony-desc", [0x43] + iso.ptpEncoded),
            ("vendor-fujifilm-changes", [0x44] + fuji.ptpEncoded),
            (
                "vendor-canon-set-property",
                [0x45]
                    + CanonEOSPropertyValue(property: DevicePropertyCode.Canon.eosCaptureDestination, uint32: 4)
                    .ptpEncoded
            ),
            ("vendor-family-nikon", [0x46, 0xB0, 0x04] + nikonInfo.ptpEncoded),
            (
                "vendor-nikon-events-ex",
                [0x47]
                    + NikonEventListEx([
                        .init(code: EventCode.Nikon.objectAddedInSdram, parameters: [0xFFFF_0001]),
                        .init(code: .devicePropChanged, parameters: [0x5007, 2]),
                        .init(code: .captureComplete, parameters: []),
                    ]).ptpEncoded
            ),
        ]
    }
}
