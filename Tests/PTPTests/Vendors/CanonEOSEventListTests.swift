import PTP
import Testing
import WireFormat

/// Canon EOS GetEvent records, built from the offsets of libgphoto2 `ptp_unpack_CANON_changes` (`PTP_ece_*`).
@Suite struct CanonEOSEventListTests {
    /// One reply with each decoded record type, an unknown one and the terminator; every field annotated.
    static let bytes: [UInt8] = hexBytes(
        """
        38 00 00 00  81 C1 00 00  // size 0x38, ObjectAddedEx
        01 00 90 91              // 0x08 ObjectHandle 0x91900001
        01 00 01 00              // 0x0C StorageID 0x00010001
        03 B1                    // 0x10 ObjectFormat CR2 0xB103
        00 00 00 00 00 00 00 00 00 00  // 0x12 not interpreted
        00 10 5E 01              // 0x1C size 0x015E1000
        00 00 90 90              // 0x20 ParentObject 0x90900000
        00 00 00 00              // 0x24 not interpreted
        49 4D 47 5F 30 30 30 31 2E 43 52 32 00  // 0x28 "IMG_0001.CR2" NUL
        00 00 00                 // padding to 0x38
        2C 00 00 00  86 C1 00 00  // size 0x2C, RequestObjectTransfer
        02 00 90 91              // 0x08 ObjectHandle 0x91900002
        03 B1                    // 0x0C ObjectFormat CR2
        00 00 00 00 00 00        // 0x0E not interpreted
        00 20 5E 01              // 0x14 size 0x015E2000
        00 00 00 00              // 0x18 not interpreted
        49 4D 47 5F 30 30 30 32 2E 43 52 32 00  // 0x1C "IMG_0002.CR2" NUL
        00 00 00                 // padding to 0x2C
        10 00 00 00  89 C1 00 00  // size 0x10, PropValueChanged
        03 D1 00 00              // 0x08 property ISOSpeed 0xD103
        48 00 00 00              // 0x0C value 0x48 (ISO 100)
        20 00 00 00  8A C1 00 00  // size 0x20, AvailListChanged
        03 D1 00 00              // 0x08 property ISOSpeed
        03 00 00 00              // 0x0C list type 3 (4-byte slots)
        03 00 00 00              // 0x10 3 values
        48 00 00 00  50 00 00 00  58 00 00 00  // 0x14 values 0x48 0x50 0x58
        0C 00 00 00  8B C1 00 00  // size 0x0C, CameraStatusChanged (not decoded)
        01 00 00 00              // 0x08 status 1
        08 00 00 00  00 00 00 00  // terminator
        """)

    @Test func decodesEveryRecordType() throws {
        let list = try CanonEOSEventList(ptpEncoded: Self.bytes)
        #expect(list.events.count == 5)
        let object = try #require(list.objectsAdded.first)
        #expect(
            object.handle == ObjectHandle(rawValue: 0x9190_0001) && object.storageID == StorageID(rawValue: 0x1_0001))
        #expect(object.format == ObjectFormatCode(0xB103) && object.byteCount == 0x015E_1000)
        #expect(object.parent == ObjectHandle(rawValue: 0x9090_0000) && object.filename == "IMG_0001.CR2")
        #expect(object.secondHandle == nil && object.trailing == [0, 0, 0])
        let request = try #require(list.transferRequests.first)
        #expect(request.handle == ObjectHandle(rawValue: 0x9190_0002) && request.byteCount == 0x015E_2000)
        #expect(request.filename == "IMG_0002.CR2" && request.code == EventCode.Canon.requestObjectTransfer)
        guard case .propertyChanged(let change) = list.events[2],
            case .availableListChanged(let available) =
                list.events[3]
        else {
            Issue.record("expected a property change and an available list")
            return
        }
        #expect(change.property == DevicePropertyCode.Canon.eosISOSpeed && change.uint32Value == 0x48)
        #expect(available.uint32Values == [0x48, 0x50, 0x58])
        #expect(list.events[4] == .unknown(type: 0xC18B, payload: [1, 0, 0, 0]))
        #expect(list.propertyValues[0xD103] == [0x48, 0, 0, 0])
    }

    @Test func reencodesByteForByte() throws {
        #expect(try CanonEOSEventList(ptpEncoded: Self.bytes).ptpEncoded == Self.bytes)
    }

    @Test func rejectsEveryTruncation() {
        for length in 0..<Self.bytes.count {
            #expect(throws: WireError.self, "prefix of \(length) bytes") {
                try CanonEOSEventList(ptpEncoded: Array(Self.bytes.prefix(length)))
            }
        }
        // Cutting inside a record is a truncation, never another kind of error.
        #expect(throws: WireError(.truncated)) { try CanonEOSEventList(ptpEncoded: Array(Self.bytes.prefix(20))) }
    }

    @Test func terminatorAloneIsAnEmptyReply() throws {
        #expect(try CanonEOSEventList(ptpEncoded: [8, 0, 0, 0, 0, 0, 0, 0]).events.isEmpty)
        #expect(CanonEOSEventList([]).ptpEncoded == [8, 0, 0, 0, 0, 0, 0, 0])
    }

    @Test func rejectsBytesAfterTheTerminator() {
        #expect(throws: WireError(.trailingBytes)) {
            try CanonEOSEventList(ptpEncoded: [8, 0, 0, 0, 0, 0, 0, 0, 0xFF])
        }
    }

    @Test func rejectsARecordSmallerThanItsHeader() {
        #expect(throws: WireError(.invalidValue)) {
            try CanonEOSEventList(ptpEncoded: [4, 0, 0, 0, 0x89, 0xC1, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0])
        }
    }

    @Test func rejectsARecordLongerThanTheDataPhase() {
        // Size 0xFFFFFFF0: must throw before anything is allocated for it.
        #expect(throws: WireError(.truncated)) {
            try CanonEOSEventList(ptpEncoded: [0xF0, 0xFF, 0xFF, 0xFF, 0x89, 0xC1, 0, 0, 1, 2, 3, 4])
        }
    }

    @Test func rejectsAFileNameWithoutNUL() {
        var record = Array(Self.bytes.prefix(0x38))
        for index in 0x28..<0x38 { record[index] = 0x41 }
        #expect(throws: WireError(.truncated)) { try CanonEOSEventList(ptpEncoded: record + [8, 0, 0, 0, 0, 0, 0, 0]) }
    }

    @Test func objectAddedEx64KeepsItsSecondHandle() throws {
        let object = CanonEOSObjectAdded(
            code: EventCode.Canon.objectAddedEx64, handle: ObjectHandle(rawValue: 7), storageID: StorageID(rawValue: 1),
            format: ObjectFormatCode(0xB108), byteCount: 123, parent: ObjectHandle(rawValue: 2),
            secondHandle: ObjectHandle(rawValue: 9), filename: "IMG_0003.CR3")
        let bytes = CanonEOSEventList([.objectAdded(object)]).ptpEncoded
        #expect(bytes.count == 0x2C + 13 + 8)  // name at 0x2C, "IMG_0003.CR3" + NUL, terminator
        #expect(Array(bytes[0x24..<0x2C]) == [2, 0, 0, 0, 9, 0, 0, 0])  // parent, second handle
        #expect(try CanonEOSEventList(ptpEncoded: bytes).objectsAdded == [object])
    }

    @Test func setDevicePropValueExCarriesItsSize() throws {
        let value = CanonEOSPropertyValue(property: DevicePropertyCode.Canon.eosCaptureDestination, uint32: 4)
        #expect(value.ptpEncoded == [0x0C, 0, 0, 0, 0x1C, 0xD1, 0, 0, 4, 0, 0, 0])
        #expect(try CanonEOSPropertyValue(ptpEncoded: value.ptpEncoded) == value)
        #expect(throws: WireError(.truncated)) {
            try CanonEOSPropertyValue(ptpEncoded: [0x10, 0, 0, 0, 0x1C, 0xD1, 0, 0])
        }
        #expect(throws: WireError(.invalidValue)) { try CanonEOSPropertyValue(ptpEncoded: [4, 0, 0, 0]) }
    }

    /// RequestObjectTransfer64LFN (0xC1B8): the payload of a real body's record as libgphoto2 `ptp-pack.c` quotes it
    /// beside `PTP_cee_OA64LFN_*` ("-" there is 00): no file name, the parent at record offset 0x1D.
    @Test func aTransferRequestWithoutAFileNameDecodes() throws {
        let record: [UInt8] =
            [0x25, 0, 0, 0, 0xB8, 0xC1, 0, 0]
            + hexBytes(
                """
                40 c0 32 14 08 b1 00 00 00 00 00 00 d4 1c a6 02
                00 00 00 00 00 c0 32 14 06 00 00 00 00
                """)
        let list = try CanonEOSEventList(ptpEncoded: record + [8, 0, 0, 0, 0, 0, 0, 0])
        let request = try #require(list.transferRequests.first)
        #expect(request.code == EventCode.Canon.requestObjectTransfer64LFN)
        #expect(request.handle == ObjectHandle(rawValue: 0x1432_C040))
        #expect(request.format == ObjectFormatCode(rawValue: 0xB108))
        #expect(request.byteCount == 0x02A6_1CD4)
        #expect(request.parent == ObjectHandle(rawValue: 0x0614_32C0))
        #expect(request.filename.isEmpty)
        #expect(list.ptpEncoded == record + [8, 0, 0, 0, 0, 0, 0, 0], "re-encodes to the same bytes")
    }
}
