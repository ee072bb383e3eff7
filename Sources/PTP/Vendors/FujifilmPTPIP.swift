/// Fujifilm's variant of PTP/IP (Wi-Fi tethering of X and GFX bodies), as constants for the transport layer.
///
/// Facts (libgphoto2 `fujiptpip.c` header comment and `ptp_fujiptpip_getdata`; port numbers also in camlib/fudge
/// `fujiptp.h` `FUJI_CMD_IP_PORT`, `FUJI_EVENT_IP_PORT`, `FUJI_LIVEVIEW_IP_PORT`):
///
/// - Only the setup packet resembles PTP/IP; after it, the command connection carries USB-style containers
///   (UINT32 length, UINT16 type 1 command / 2 data / 3 response / 4 event, UINT16 code, UINT32 transaction ID,
///   then parameters or data), so ``USBContainer`` decodes them.
/// - Three TCP connections: commands on ``commandPort``, events on ``eventPort`` and live-view JPEGs on
///   ``liveViewPort``; the camera listens on the last two only after InitiateOpenCapture (0x101C).
/// - The live-view connection sends (UINT32 length, data) blobs with a 14-byte header before the JPEG's FF D8.
/// - The X-T4 answers GetDeviceInfo with an empty data phase; libgphoto2 then substitutes a built-in DeviceInfo
///   (Manufacturer "FUJIFILM", VendorExtensionID Fujifilm). ``isEmptyDeviceInfo(_:)`` recognises the case so that
///   the caller can identify the camera from the PTP/IP handshake's name instead.
public enum FujifilmPTPIP {
    /// The command connection's TCP port, 55740.
    public static let commandPort: UInt16 = 55740
    /// The event connection's TCP port, 55741.
    public static let eventPort: UInt16 = 55741
    /// The live-view JPEG connection's TCP port, 55742.
    public static let liveViewPort: UInt16 = 55742
    /// The operation that opens the event and live-view ports: InitiateOpenCapture, 0x101C.
    public static let openCaptureOperation = OperationCode.initiateOpenCapture
    /// Bytes before the JPEG in each live-view blob, after its UINT32 length (libgphoto2: "a 14 byte blob in front
    /// of the FF D8 start").
    public static let liveViewHeaderByteCount = 14

    /// Whether a GetDeviceInfo data phase is the X-T4's empty answer.
    public static func isEmptyDeviceInfo(_ data: [UInt8]) -> Bool { data.isEmpty }
}
