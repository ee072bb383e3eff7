import CameraEmulator
import PTP
import PTPUSB

/// An open link to a camera and the PTP session over it, whatever the transport.
public struct CameraConnection: Sendable {
    /// Where the camera is, for people: `usb:001:005 Canon EOS R5 (04a9:32f4), port 1-3`.
    public var location: String
    /// The transport's own facts about the camera (for USB: IDs, port, strings), shown by `rawcap info`.
    public var link: CameraLink
    /// The session; not opened yet.
    public var session: PTPSession
    /// Closes the transport and releases the camera.
    public var close: @Sendable () async -> Void
    /// The in-process emulated camera behind `--camera sim`, so a reconnect finds the same body.
    public var emulatedCamera: EmulatedCamera? = nil

    /// Opens the session and establishes the camera's identity once, with the link's USB IDs
    /// (``PTP/PTPSession/cameraIdentity(usbVendorID:usbProductID:)``: DeviceInfo, then a Nikon's vendor property
    /// list, as libgphoto2 and the recorded Windows client of a real D5500 do right after OpenSession).
    @discardableResult
    public func open() async throws -> CameraIdentity {
        try await session.openSession()
        return try await session.cameraIdentity(usbVendorID: link.usbVendorID, usbProductID: link.usbProductID)
    }
}

/// What the transport knows about the camera, apart from PTP.
public enum CameraLink: Sendable {
    /// A USB camera as discovery described it.
    case usb(USBCameraInfo)
    /// A PTP/IP camera: its address and the name it gave in Init Command Ack.
    case ptpip(address: String, friendlyName: String)
    /// A recording played back: its path, the replay mode, and the camera model it names.
    case replay(path: String, mode: String, cameraModel: String?)
    /// rawcap's emulated camera, in process (`--camera sim`).
    case emulated
}

extension CameraLink {
    /// The camera's USB idVendor, when it is on USB: part of how rawcap tells camera families apart.
    public var usbVendorID: USBVendorID? {
        if case .usb(let camera) = self { return USBVendorID(rawValue: camera.vendorID) }
        return nil
    }

    /// The camera's USB idProduct, when it is on USB: a Nikon's tells which image quality numbering it uses.
    public var usbProductID: UInt16? {
        if case .usb(let camera) = self { return camera.productID }
        return nil
    }
}
