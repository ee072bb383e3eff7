import PTP
import Testing
import WireFormat

@Suite struct USBContainerTests {
    /// Real containers from the PTP notes and libgphoto2 logs.
    static let specContainers: [(String, [UInt8], USBContainer)] = [
        (
            "OpenSession(1), tid 0 (libgphoto2 issue 716)",
            hexBytes("10 00 00 00  01 00  02 10  00 00 00 00  01 00 00 00"),
            .command(.openSession, transactionID: 0, parameters: [1])
        ),
        (
            "GetDeviceInfo, tid 1 (Canon EOS 60D log)",
            hexBytes("0c 00 00 00  01 00  01 10  01 00 00 00"),
            .command(.getDeviceInfo, transactionID: 1, parameters: [])
        ),
        (
            "Response OK, tid 3",
            hexBytes("0c 00 00 00  03 00  01 20  03 00 00 00"),
            .response(.ok, transactionID: 3, parameters: [])
        ),
        (
            "Sony event 0xC203, no transaction, p1 0xD21D (libgphoto2 issue 93)",
            hexBytes("10 00 00 00  04 00  03 c2  ff ff ff ff  1d d2 00 00"),
            .event(EventCode(0xC203), transactionID: 0xFFFF_FFFF, parameters: [0xD21D])
        ),
        (
            "GetPartialObject with three parameters",
            hexBytes("18 00 00 00  01 00  1b 10  05 00 00 00  00 01 00 00  00 00 30 00  7b 00 00 00"),
            .command(.getPartialObject, transactionID: 5, parameters: [0x100, 0x30_0000, 0x7B])
        ),
        (
            "Response with five parameters",
            hexBytes(
                "20 00 00 00  03 00  01 20  07 00 00 00  01 00 00 00 02 00 00 00 03 00 00 00 04 00 00 00 05 00 00 00"),
            .response(.ok, transactionID: 7, parameters: [1, 2, 3, 4, 5])
        ),
        (
            "Data container, 3 bytes",
            hexBytes("0f 00 00 00  02 00  15 10  09 00 00 00  aa bb cc"),
            .data(.getDevicePropValue, transactionID: 9, payload: [0xAA, 0xBB, 0xCC])
        ),
        (
            "Empty data container",
            hexBytes("0c 00 00 00  02 00  16 10  0a 00 00 00"),
            .data(.setDevicePropValue, transactionID: 10, payload: [])
        ),
    ]

    @Test(arguments: 0..<specContainers.count)
    func decodesAndReencodesSpecContainers(index: Int) throws {
        let (name, bytes, container) = Self.specContainers[index]
        #expect(try USBContainer(usbEncoded: bytes) == container, "\(name)")
        #expect(container.usbEncoded == bytes, "\(name)")
    }

    @Test(arguments: 0..<specContainers.count)
    func rejectsEveryTruncation(index: Int) {
        let (name, bytes, _) = Self.specContainers[index]
        for length in 0..<bytes.count {
            #expect(throws: WireError(.truncated), "\(name) prefix of \(length)") {
                try USBContainer(usbEncoded: Array(bytes.prefix(length)))
            }
        }
        #expect(throws: WireError(.trailingBytes)) { try USBContainer(usbEncoded: bytes + [0]) }
    }

    @Test(arguments: [
        ("length under 12", "0b 00 00 00 03 00 01 20 00 00 00 00"),
        ("unknown type 5", "0c 00 00 00 05 00 01 20 00 00 00 00"),
        ("type 0", "0c 00 00 00 00 00 01 20 00 00 00 00"),
        ("response with 6 parameters", "24 00 00 00 03 00 01 20 00 00 00 00" + String(repeating: " 00", count: 24)),
        ("event with 4 parameters", "1c 00 00 00 04 00 02 40 00 00 00 00" + String(repeating: " 00", count: 16)),
        ("parameters not whole UInt32s", "0e 00 00 00 03 00 01 20 00 00 00 00 00 00"),
        ("huge response length", "ff ff ff 7f 03 00 01 20 00 00 00 00"),
    ])
    func rejectsInvalidHeaders(name: String, hex: String) {
        #expect(throws: WireError(.invalidValue), "\(name)") { try USBContainer(usbEncoded: hexBytes(hex)) }
    }

    // MARK: The framer

    private func frame(_ transfers: [([UInt8], Bool)], max: UInt64 = 1 << 33) throws -> [USBContainerFramer.Item] {
        var framer = USBContainerFramer(maxDataPayloadByteCount: max)
        var items: [USBContainerFramer.Item] = []
        for (bytes, short) in transfers {
            framer.append(bytes, endsTransfer: short)
            while let item = try framer.next() { items.append(item) }
        }
        return items
    }

    /// Joins consecutive data chunks so results compare independently of how bytes were split.
    private func coalesce(_ items: [USBContainerFramer.Item]) -> [USBContainerFramer.Item] {
        var result: [USBContainerFramer.Item] = []
        for item in items {
            if case .dataBytes(let bytes) = item, case .dataBytes(let previous)? = result.last {
                result[result.count - 1] = .dataBytes((Array(previous) + Array(bytes))[...])
            } else {
                result.append(item)
            }
        }
        return result
    }

    @Test func dataThenGluedResponseSplitAtEveryByte() throws {
        let data = USBContainer.data(.getObject, transactionID: 4, payload: PatternSource.bytes(0..<1000)).usbEncoded
        let response = USBContainer.response(.ok, transactionID: 4, parameters: []).usbEncoded
        let stream = data + response
        let expected: [USBContainerFramer.Item] = [
            .dataStart(code: .getObject, transactionID: 4, payloadByteCount: 1000),
            .dataBytes(PatternSource.bytes(0..<1000)[...]),
            .dataEnd,
            .container(.response(.ok, transactionID: 4, parameters: [])),
        ]
        // Every split point, as two full (not short) pieces, then the end of the transfer.
        for split in 0...stream.count {
            let items = try frame([(Array(stream[..<split]), false), (Array(stream[split...]), true)])
            #expect(coalesce(items) == expected, "split at \(split)")
        }
        // One byte at a time.
        #expect(coalesce(try frame(stream.map { ([$0], false) })) == expected)
    }

    @Test func strayZeroLengthPacketsAreSkipped() throws {
        let response = USBContainer.response(.ok, transactionID: 1, parameters: []).usbEncoded
        let items = try frame([([], true), (response, true), ([], true)])
        #expect(items == [.container(.response(.ok, transactionID: 1, parameters: []))])
    }

    @Test func unknownLengthDataEndsAtTheFirstShortTransfer() throws {
        let header = USBContainerHeader(length: 0xFFFF_FFFF, type: .data, code: 0x1009, transactionID: 2).usbEncoded
        let response = USBContainer.response(.ok, transactionID: 2, parameters: []).usbEncoded
        let body = PatternSource.bytes(0..<1024)
        // Header + 500 bytes in a full 512-byte transfer, 512 more (full), then 12 bytes short, then the response.
        let items = coalesce(
            try frame([
                (header + Array(body[0..<500]), false), (Array(body[500..<1012]), false),
                (Array(body[1012..<1024]), true),
                (response, true),
            ]))
        #expect(
            items == [
                .dataStart(code: .getObject, transactionID: 2, payloadByteCount: nil), .dataBytes(body[...]), .dataEnd,
                .container(.response(.ok, transactionID: 2, parameters: [])),
            ])
        // A multiple of the packet size ends with a zero-length packet.
        let zlp = coalesce(try frame([(header + Array(body[0..<500]), false), ([], true), (response, true)]))
        #expect(
            zlp == [
                .dataStart(code: .getObject, transactionID: 2, payloadByteCount: nil), .dataBytes(body[0..<500]),
                .dataEnd,
                .container(.response(.ok, transactionID: 2, parameters: [])),
            ])
        // A header sent alone in a short transfer does not end the data (split header devices).
        let split = coalesce(try frame([(header, true), (Array(body[0..<20]), true), (response, true)]))
        #expect(split.count == 4 && split[1] == .dataBytes(body[0..<20]))
    }

    @Test func unknownLengthDataIsBoundedByTheLimit() {
        let header = USBContainerHeader(length: 0xFFFF_FFFF, type: .data, code: 0x1009, transactionID: 2).usbEncoded
        #expect(throws: WireError(.limitExceeded)) {
            try frame([(header + [UInt8](repeating: 0, count: 600), false)], max: 512)
        }
        let known = USBContainerHeader.data(code: 0x1009, transactionID: 2, payloadByteCount: 600).usbEncoded
        #expect(throws: WireError(.limitExceeded)) { try frame([(known, false)], max: 512) }
    }

    @Test func aShortTransferInsideAContainerIsATruncation() {
        let response = USBContainer.response(.ok, transactionID: 1, parameters: [7]).usbEncoded
        #expect(throws: WireError(.truncated)) { try frame([(Array(response.prefix(14)), true)]) }
        #expect(throws: WireError(.truncated)) { try frame([(Array(response.prefix(5)), true)]) }
    }

    @Test func hugeDataPhasesUseTheUnknownLength() {
        #expect(
            USBContainerHeader.data(code: 0x1009, transactionID: 1, payloadByteCount: 5 << 30).length == 0xFFFF_FFFF)
        #expect(
            USBContainerHeader.data(code: 0x1009, transactionID: 1, payloadByteCount: 0xFFFF_FFF2).length == 0xFFFF_FFFE
        )
        #expect(
            USBContainerHeader.data(code: 0x1009, transactionID: 1, payloadByteCount: 0xFFFF_FFF3).length == 0xFFFF_FFFF
        )
    }

    @Test func deviceStatusDecodes() throws {
        let status = try USBDeviceStatus(usbEncoded: hexBytes("08 00 19 20 81 00 00 00 00 00"))
        #expect(status.code == .deviceBusy && status.stalledEndpointAddresses == [0x81])
        #expect(status.usbEncoded == hexBytes("08 00 19 20 81 00 00 00"))
        #expect(throws: WireError(.invalidValue)) { try USBDeviceStatus(usbEncoded: hexBytes("06 00 01 20 00 00")) }
        #expect(throws: WireError(.truncated)) { try USBDeviceStatus(usbEncoded: [0x04]) }
    }
}
