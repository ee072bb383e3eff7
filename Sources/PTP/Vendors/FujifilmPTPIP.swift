import WireFormat

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
/// - The live-view connection sends (UINT32 length, data) blobs with a 14-byte header before the JPEG's FF D8
///   (libgphoto2 `ptp_fujiptpip_jpeg`, `ptp_fujiptpip_generic_read` without a type word; fuji-cam-wifi-tool
///   `image_stream_main` skips the same 14 bytes). The length counts itself. What the 14 bytes mean is not known;
///   the one public capture of a blob (petabyt/vcam `bin/fuji/lv_stream`, 9,371 bytes, a 640×480 baseline JPEG)
///   has twelve zero bytes, then 0x01 0x8A.
/// - A body in tether mode refuses the first Init Command Request on a connection (Init Fail) and accepts the same
///   request sent again about 500 ms later on that connection (libgphoto2 commit 29ee7d740, "Fuji: When connecting
///   via PTP/IP try to connect twice": "The official XAcquire App also does this … The first attempt always fails
///   and retrying after 500ms works"; `ptp_fujiptpip_connect` sends the request twice). The refusal's bytes, as
///   fuji-cam-wifi-tool `init_control_connection` quotes them: type 5, reason 0x2019 (DeviceBusy).
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
    /// The header bytes the emulated body sends: those of the public capture (see above).
    public static let liveViewHeader: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01, 0x8A]
    /// The largest live-view blob accepted from a camera (its frames are 10–200 KB).
    public static let maxLiveViewBlobByteCount = 16 << 20
    /// How long a host waits before sending its Init Command Request again after Init Fail (libgphoto2: 500 ms).
    public static let initRetryPause = Duration.milliseconds(500)

    /// One live-view blob as the camera sends it: UINT32 length (counting itself), the header, the JPEG.
    public static func liveViewBlob(jpeg: [UInt8], header: [UInt8] = liveViewHeader) -> [UInt8] {
        var writer = WireWriter(byteOrder: .little)
        writer.write(UInt32(4 + header.count + jpeg.count))
        writer.write(bytes: header)
        writer.write(bytes: jpeg)
        return writer.bytes
    }

    /// The length a live-view blob's first four bytes announce, checked against ``maxLiveViewBlobByteCount``.
    public static func liveViewBlobLength(_ header: [UInt8]) throws(WireError) -> Int {
        var reader = WireReader(header[...], byteOrder: .little)
        let length = Int(try reader.read(UInt32.self))
        guard length >= 4, length <= maxLiveViewBlobByteCount else {
            throw WireError(
                .limitExceeded, at: 0, "live-view blob of \(length) bytes (4…\(maxLiveViewBlobByteCount))")
        }
        return length
    }

    /// Whether a GetDeviceInfo data phase is the X-T4's empty answer.
    public static func isEmptyDeviceInfo(_ data: [UInt8]) -> Bool { data.isEmpty }
}
