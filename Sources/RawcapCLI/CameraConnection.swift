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
}

/// What the transport knows about the camera, apart from PTP.
public enum CameraLink: Sendable {
    /// A USB camera as discovery described it.
    case usb(USBCameraInfo)
    /// rawcap's emulated camera, in process (`--camera sim`).
    case emulated
}
