import PTP
import Testing
import WireFormat

@Suite struct FujifilmTests {
    static let bytes: [UInt8] = hexBytes(
        """
        02 00                    // count 2
        22 D2  05 00 00 00       // 0xD222 (object count) = 5
        12 D2  01 00 00 00       // 0xD212 = 1
        """)

    @Test func changeListDecodesAndReencodes() throws {
        let list = try FujifilmPropertyChangeList(ptpEncoded: Self.bytes)
        #expect(
            list.changes == [
                .init(property: DevicePropertyCode(rawValue: 0xD222), value: 5),
                .init(property: FujifilmCapture.changesProperty, value: 1),
            ])
        #expect(list.ptpEncoded == Self.bytes)
    }

    @Test func changeListRejectsEveryTruncation() {
        for length in 0..<Self.bytes.count {
            #expect(throws: WireError(.truncated), "prefix of \(length) bytes") {
                try FujifilmPropertyChangeList(ptpEncoded: Array(Self.bytes.prefix(length)))
            }
        }
    }

    @Test func captureAndPTPIPFacts() {
        #expect(FujifilmCapture.sequence(autofocus: true).map(\.captureControl) == [0x0200, 0x0304])
        #expect(FujifilmCapture.sequence(autofocus: false).map(\.captureControl) == [0x0304])
        #expect(FujifilmCapture.captureControlProperty.rawValue == 0xD208)
        #expect(
            [FujifilmPTPIP.commandPort, FujifilmPTPIP.eventPort, FujifilmPTPIP.liveViewPort] == [55740, 55741, 55742])
        #expect(FujifilmPTPIP.isEmptyDeviceInfo([]) && !FujifilmPTPIP.isEmptyDeviceInfo([0x64, 0]))
    }

    /// After the setup packet, Fujifilm's PTP/IP command connection carries USB containers.
    @Test func ptpipCommandsAreUSBContainers() throws {
        let request = hexBytes("10 00 00 00  01 00  01 10  00 00 00 00  00 00 00 00")  // GetDeviceInfo, tid 0, 1 param
        guard case .command(let code, let transactionID, let parameters) = try USBContainer(usbEncoded: request) else {
            Issue.record("not a command")
            return
        }
        #expect(code == .getDeviceInfo && transactionID == 0 && parameters == [0])
    }
}
