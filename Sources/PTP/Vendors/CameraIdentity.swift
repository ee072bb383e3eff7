import Logging
import WireFormat

/// Who the camera is, established once per connection: its DeviceInfo with the vendor's own property list merged
/// in, the USB IDs when it is on USB, and the family that drives it. Everything after connecting (`info`, `config`,
/// capture drivers, `pull`) reads this instead of asking for DeviceInfo again.
///
/// Why the merge: a real Nikon lists only the standard properties in DeviceInfo (a D5500 lists 22: 0x5001–0x501F
/// and the MTP properties 0xD303, 0xD406, 0xD407) and its vendor properties — RecordingMedia 0xD10B, RawBitMode
/// 0xD149 and about a hundred more — only in the answer to GetVendorPropCodes (0x90CA). libgphoto2 asks for them
/// right after GetDeviceInfo and appends them to DevicePropertiesSupported (`library.c`
/// `fixup_cached_deviceinfo`, "Nikon: extended properties"), and so did the Windows client of a D5500 capture
/// recorded with USBPcap (OpenSession, GetDeviceInfo, 0x90CA). The libgphoto2 summaries of real bodies
/// (`camlibs/ptp2/cameras/nikon-d5500.txt`, `nikon-d850.txt`) show the same split: the standard properties, then the
/// vendor ones.
///
/// A camera that lists 0x90CA but refuses it (a Nikon D3200 answered it with a response and no data, photobooth
/// issue 233) keeps its DeviceInfo list; the refusal is logged and the connection goes on.
public struct CameraIdentity: Sendable, Hashable {
    /// DeviceInfo with ``vendorPropertyCodes`` appended to DevicePropertiesSupported (each code once, DeviceInfo's
    /// order first): what the rest of rawcap reads.
    public var deviceInfo: DeviceInfo
    /// DeviceInfo exactly as the camera sent it.
    public var reportedDeviceInfo: DeviceInfo
    /// The property codes the vendor's own operation listed (Nikon GetVendorPropCodes), in the camera's order;
    /// empty when the camera has no such operation or refused it.
    public var vendorPropertyCodes: [DevicePropertyCode]
    /// idVendor when the camera is on USB.
    public var usbVendorID: USBVendorID?
    /// idProduct when the camera is on USB.
    public var usbProductID: UInt16?
    /// The family that drives it, and why.
    public var identification: CameraFamily.Identification

    /// The family.
    public var family: CameraFamily { identification.family }

    /// idProduct of a Nikon on USB (what tells a Nikon's image quality numbering), else `nil`.
    public var nikonUSBProductID: UInt16? { usbVendorID == .nikon ? usbProductID : nil }

    /// Builds the identity from answers already read (tests, replays).
    public init(
        reportedDeviceInfo: DeviceInfo, vendorPropertyCodes: [DevicePropertyCode] = [],
        usbVendorID: USBVendorID? = nil, usbProductID: UInt16? = nil
    ) {
        self.reportedDeviceInfo = reportedDeviceInfo
        self.vendorPropertyCodes = vendorPropertyCodes
        self.usbVendorID = usbVendorID
        self.usbProductID = usbProductID
        identification = CameraFamily.identify(reportedDeviceInfo, usbVendorID: usbVendorID)
        deviceInfo = reportedDeviceInfo
        deviceInfo.devicePropertiesSupported = Self.merge(
            Self.merge(reportedDeviceInfo.devicePropertiesSupported, vendorPropertyCodes),
            identification.vendor == .fujifilm ? Self.fujifilmUnlistedProperties : [])
    }

    /// The properties a Fujifilm X body answers without listing them in DeviceInfo, which libgphoto2 appends to
    /// every Fujifilm's list (`library.c` `fixup_cached_deviceinfo`, "PTP_VENDOR_FUJI": ExposureTime, FNumber, PC
    /// mode 0xD38C, ExposureBiasCompensation among its 72): a real X-T2 lists none of them (libgphoto2
    /// `camlibs/ptp2/cameras/fuji-xt2.txt`) yet its shutter, aperture and bias are set through them. rawcap appends
    /// the ones it uses.
    static let fujifilmUnlistedProperties: [DevicePropertyCode] = [
        .exposureTime, .fNumber, DevicePropertyCode.Fujifilm.pcMode, .exposureBiasCompensation,
    ]

    /// `listed` followed by the codes of `extra` it does not already hold, in order.
    static func merge(_ listed: [DevicePropertyCode], _ extra: [DevicePropertyCode]) -> [DevicePropertyCode] {
        var seen = Set(listed)
        var merged = listed
        for code in extra where seen.insert(code).inserted { merged.append(code) }
        return merged
    }

    /// Whether the vendor property list is to be asked for: a Nikon (by USB vendor, VendorExtensionID or
    /// Manufacturer, as ``CameraFamily/identify(_:usbVendorID:)`` decides the vendor) that lists 0x90CA. Nikon 1
    /// bodies count too: they shoot generically but their settings are vendor properties all the same.
    static func asksVendorPropertyCodes(_ info: DeviceInfo, usbVendorID: USBVendorID?) -> Bool {
        CameraFamily.identify(info, usbVendorID: usbVendorID).vendor == .nikon
            && info.supports(OperationCode.Nikon.getVendorPropCodes)
    }
}

extension PTPSession {
    /// Nikon GetVendorPropCodes (0x90CA): the vendor property codes, a PTP array of UINT16.
    public func nikonGetVendorPropCodes() async throws -> [DevicePropertyCode] {
        let data =
            try await execute(
                OperationCode.Nikon.getVendorPropCodes, parameters: [], dataOut: nil, expectDataIn: true
            ).data ?? []
        var reader = WireReader(data, byteOrder: .little)
        return try reader.readArray(of: UInt16.self).map(DevicePropertyCode.init(rawValue:))
    }

    /// The camera's ``CameraIdentity``: established by the first call inside a session (GetDeviceInfo, then the
    /// vendor's property list where the camera has one) and kept until the transport is replaced; later calls return
    /// it without asking the camera. Outside a session it is DeviceInfo alone and is not kept.
    ///
    /// - Parameters:
    ///   - usbVendorID: idVendor when the camera is on USB (only the first call's IDs count).
    ///   - usbProductID: idProduct when the camera is on USB.
    public func cameraIdentity(usbVendorID: USBVendorID? = nil, usbProductID: UInt16? = nil) async throws
        -> CameraIdentity
    {
        if let identity { return identity }
        let info = try await getDeviceInfo()
        // GetVendorPropCodes needs a session; outside one the identity is DeviceInfo alone, and not kept.
        guard sessionID != nil else {
            return CameraIdentity(reportedDeviceInfo: info, usbVendorID: usbVendorID, usbProductID: usbProductID)
        }
        var vendorCodes: [DevicePropertyCode] = []
        if CameraIdentity.asksVendorPropertyCodes(info, usbVendorID: usbVendorID) {
            do {
                vendorCodes = try await nikonGetVendorPropCodes()
            } catch let error as PTPError {
                logger.warning(
                    "the camera lists GetVendorPropCodes (0x90CA) but refused it (\(error)); only DeviceInfo's properties are known"
                )
            } catch let error as WireError {
                logger.warning(
                    "the camera's GetVendorPropCodes (0x90CA) answer does not decode (\(error)); only DeviceInfo's properties are known"
                )
            }
        }
        let established = CameraIdentity(
            reportedDeviceInfo: info, vendorPropertyCodes: vendorCodes, usbVendorID: usbVendorID,
            usbProductID: usbProductID)
        identity = established
        return established
    }

    /// DeviceInfo as ``cameraIdentity(usbVendorID:usbProductID:)`` holds it: the vendor's property list merged in.
    public func deviceInfo() async throws -> DeviceInfo {
        try await cameraIdentity().deviceInfo
    }

    /// Forgets the identity, so the next ``cameraIdentity(usbVendorID:usbProductID:)`` asks the camera again (after
    /// a mode change that alters what DeviceInfo lists).
    public func forgetIdentity() {
        identity = nil
    }
}
