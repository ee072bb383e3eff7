/// The PTP interface of a USB camera: its number and alternate setting, and the three endpoints PTP needs.
///
/// A still-image interface is class 6, subclass 1, protocol 1 (USB Still Image Capture Device Definition §4). Some
/// cameras expose PTP on a vendor-specific interface (class 0xFF) instead, in some of their USB modes; those are
/// accepted only from the makers in ``KnownCameraVendors`` and only with the same three endpoints, so a vendor's
/// other gadgets are not mistaken for cameras.
public struct USBCameraInterface: Hashable, Sendable {
    /// How the interface was recognised.
    public enum Kind: String, Hashable, Sendable {
        /// Interface class 6/1/1.
        case stillImage
        /// A vendor-specific interface (class 0xFF) of a known camera maker.
        case vendorSpecific
    }

    /// How the interface was recognised.
    public var kind: Kind
    /// bInterfaceNumber: wIndex of the class requests.
    public var number: UInt8
    /// bAlternateSetting.
    public var alternateSetting: UInt8
    /// The bulk IN endpoint (device data phases and responses).
    public var bulkIn: USBEndpointDescription
    /// The bulk OUT endpoint (commands and host data phases).
    public var bulkOut: USBEndpointDescription
    /// The interrupt IN endpoint (events).
    public var interruptIn: USBEndpointDescription

    /// Creates an interface description.
    public init(
        kind: Kind, number: UInt8, alternateSetting: UInt8, bulkIn: USBEndpointDescription,
        bulkOut: USBEndpointDescription, interruptIn: USBEndpointDescription
    ) {
        self.kind = kind
        self.number = number
        self.alternateSetting = alternateSetting
        self.bulkIn = bulkIn
        self.bulkOut = bulkOut
        self.interruptIn = interruptIn
    }

    /// The camera interface among a device's interfaces (every alternate setting of its active configuration), or
    /// `nil` when the device is not a camera. A still-image interface wins over a vendor-specific one.
    public static func find(vendorID: UInt16, in interfaces: [USBInterfaceDescription]) -> USBCameraInterface? {
        let stillImage = interfaces.lazy.filter {
            $0.interfaceClass == 0x06 && $0.interfaceSubclass == 0x01 && $0.interfaceProtocol == 0x01
        }
        if let found = stillImage.compactMap({ Self.withEndpoints(.stillImage, $0) }).first { return found }
        guard KnownCameraVendors.name(of: vendorID) != nil else { return nil }
        return interfaces.lazy.filter { $0.interfaceClass == 0xFF }
            .compactMap { Self.withEndpoints(.vendorSpecific, $0) }.first
    }

    private static func withEndpoints(_ kind: Kind, _ interface: USBInterfaceDescription) -> USBCameraInterface? {
        let endpoints = interface.endpoints
        guard let bulkIn = endpoints.first(where: { $0.transferType == .bulk && $0.isIn }),
            let bulkOut = endpoints.first(where: { $0.transferType == .bulk && !$0.isIn }),
            let interruptIn = endpoints.first(where: { $0.transferType == .interrupt && $0.isIn }),
            bulkIn.maxPacketSize > 0, bulkOut.maxPacketSize > 0, interruptIn.maxPacketSize > 0
        else { return nil }
        return USBCameraInterface(
            kind: kind, number: interface.number, alternateSetting: interface.alternateSetting, bulkIn: bulkIn,
            bulkOut: bulkOut, interruptIn: interruptIn)
    }
}
