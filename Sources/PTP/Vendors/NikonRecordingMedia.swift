/// Nikon's RecordingMedia (0xD10B, a UINT8): where a remote capture is stored.
///
/// Code: libgphoto2 `ptp.h` `PTP_DPC_NIKON_RecordingMedia`; values from `config.c` `nikon_recordingmedia` ("Card"
/// 0, "SDRAM" 1). rawcap captures to SDRAM so the card is never written.
public struct NikonRecordingMedia: RawRepresentable, Hashable, Sendable {
    /// The property value.
    public let rawValue: UInt8
    /// Wraps any value.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The property that holds it.
    public static let property = DevicePropertyCode.Nikon.recordingMedia

    /// The memory card, 0.
    public static let card = NikonRecordingMedia(rawValue: 0)
    /// The camera's SDRAM (the host downloads and the camera discards), 1.
    public static let sdram = NikonRecordingMedia(rawValue: 1)
}
