import PTP
import WireFormat

/// libFuzzer entry point for PTP datasets and values: the first byte picks the parser and the quirks, the rest is
/// the data phase. Selector bit 0x40 picks the vendor table (Canon EOS, Nikon, Sony, Fujifilm; see `fuzzVendor`).
///
/// Any `WireError` is a correct outcome. Without quirks, a decoded value must survive an encode and decode
/// unchanged; with quirks, its encoding must still decode without them.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPTPDatasets(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let selector = data[0]
    let bytes = [UInt8](UnsafeBufferPointer(start: data + 1, count: size - 1))
    let quirks: PTPQuirks = selector & 0x80 != 0 ? [.wideEightBitEnumerations, .unterminatedStrings] : []
    if selector & 0x40 != 0 {
        fuzzVendor(selector & 0x0F, bytes, quirks)
        return 0
    }
    switch selector & 0x0F {
    case 0: check(DeviceInfo.self, bytes, quirks)
    case 1: check(StorageInfo.self, bytes, quirks)
    case 2: check(ObjectInfo.self, bytes, quirks)
    case 3: check(DevicePropDesc.self, bytes, quirks)
    case 4: check(StorageIDArray.self, bytes, quirks)
    case 5: check(ObjectHandleArray.self, bytes, quirks)
    case 6: check(SonyExtDeviceInfo.self, bytes, quirks)
    case 7:
        // A typed value: two bytes of data type, then the value.
        guard bytes.count >= 2 else { return 0 }
        let type = DataTypeCode(rawValue: UInt16(bytes[0]) | UInt16(bytes[1]) << 8)
        guard let value = try? PTPValue(ptpEncoded: Array(bytes.dropFirst(2)), type: type, quirks: quirks) else {
            return 0
        }
        guard value.dataType == type else { fatalError("value of type \(value.dataType) decoded as \(type)") }
        let again = try? PTPValue(ptpEncoded: value.ptpEncoded, type: type)
        if quirks.isEmpty && again != value { fatalError("value round trip failed for \(type)") }
    case 8:
        var reader = WireReader(bytes, byteOrder: .little)
        guard let string = try? PTPString.read(from: &reader, quirks: quirks) else { return 0 }
        var writer = WireWriter(byteOrder: .little)
        PTPString.write(string, into: &writer)
        var back = WireReader(writer.bytes, byteOrder: .little)
        let again = try? PTPString.read(from: &back)
        if quirks.isEmpty && again != string { fatalError("string round trip failed") }
    case 9:
        let text = String(decoding: bytes, as: UTF8.self)
        guard let date = try? PTPDateTime(ptpString: text) else { return 0 }
        guard (try? PTPDateTime(ptpString: date.ptpString)) == date else {
            fatalError("date round trip failed for \(text)")
        }
        _ = date.secondsSince1970(localOffsetMinutes: Int(selector) - 128)
    default:
        // Everything at once on the same bytes: none may trap.
        for type in [DeviceInfo.self, StorageInfo.self, ObjectInfo.self, DevicePropDesc.self] as [any PTPDataset.Type] {
            _ = try? type.init(ptpEncoded: bytes, quirks: quirks)
        }
    }
    return 0
}

/// The vendor decoders (Sources/PTP/Vendors), selected by the low nibble of a selector with bit 0x40 set.
func fuzzVendor(_ selector: UInt8, _ bytes: [UInt8], _ quirks: PTPQuirks) {
    switch selector {
    case 0: check(CanonEOSEventList.self, bytes, quirks)
    case 1: check(NikonEventList.self, bytes, quirks)
    case 2: check(SonyAllDevicePropData.self, bytes, quirks)
    case 3: check(SonyDevicePropDesc.self, bytes, quirks)
    case 4: check(FujifilmPropertyChangeList.self, bytes, quirks)
    case 5: check(CanonEOSPropertyValue.self, bytes, quirks)
    case 7: check(NikonEventListEx.self, bytes, quirks)
    case 8: check(CanonEOSImageFormat.self, bytes, quirks)
    case 9:
        // Fujifilm's Wi-Fi handshake packets: a decoded request or answer must survive an encode and decode.
        if let request = try? FujiPTPIPHandshake.Request(packet: bytes),
            (try? FujiPTPIPHandshake.Request(packet: request.encoded)) != request
        {
            fatalError("Fujifilm Init Command Request does not survive a round trip")
        }
        if let answer = try? FujiPTPIPHandshake.Answer(packet: bytes),
            (try? FujiPTPIPHandshake.Answer(packet: answer.encoded)) != answer
        {
            fatalError("Fujifilm handshake answer does not survive a round trip")
        }
        _ = try? FujiPTPIPHandshake.announcedLength(bytes)
    case 6:
        // Family identification: two bytes of USB vendor ID, then a DeviceInfo. It must name a family and never trap.
        guard bytes.count >= 2, let info = try? DeviceInfo(ptpEncoded: Array(bytes.dropFirst(2)), quirks: quirks) else {
            return
        }
        let vendor = USBVendorID(rawValue: UInt16(bytes[0]) | UInt16(bytes[1]) << 8)
        let identification = CameraFamily.identify(info, usbVendorID: vendor)
        if identification.family != .generic,
            !info.operationsSupported.contains(where: {
                identification.family.markerOperations.contains($0)
            })
        {
            fatalError("\(identification.family) chosen without its marker operation")
        }
    default:
        // Every vendor decoder on the same bytes: none may trap.
        for type in [
            CanonEOSEventList.self, NikonEventList.self, SonyAllDevicePropData.self, SonyDevicePropDesc.self,
            FujifilmPropertyChangeList.self, CanonEOSPropertyValue.self, NikonEventListEx.self,
            CanonEOSImageFormat.self,
        ] as [any PTPDataset.Type] {
            _ = try? type.init(ptpEncoded: bytes, quirks: quirks)
        }
    }
}

/// Decodes `bytes` as `T`; a success must round-trip (exactly without quirks, and decodably with them).
func check<T: PTPDataset & Equatable>(_: T.Type, _ bytes: [UInt8], _ quirks: PTPQuirks) {
    guard let value = try? T(ptpEncoded: bytes, quirks: quirks) else { return }
    let encoded = value.ptpEncoded
    guard let again = try? T(ptpEncoded: encoded) else { fatalError("\(T.self) encoding does not decode") }
    // Not byte-exact: "01 00 00" and "00" are both the empty string, and text after a NUL is dropped.
    if quirks.isEmpty && again != value { fatalError("\(T.self) round trip failed") }
}
