/// Bounds on what a capture file may make rawcap allocate, each with its reason. A recording is untrusted input,
/// like a camera: every length and count is checked against these before anything is allocated.
public enum CaptureLimits {
    /// Largest pcapng block or pcap record: 64 MiB. rawcap records USB transfers of at most 1 MiB and TCP segments
    /// under 64 KiB; usbmon and USBPcap default to snap lengths of a few hundred KiB.
    public static let maxBlockByteCount = 64 * 1024 * 1024
    /// Most interfaces in one pcapng section. Real captures have a handful.
    public static let maxInterfaceCount = 1024
    /// Largest single PTP data phase rebuilt from a capture: 1 GiB, above any raw file in the field.
    public static let maxDataPhaseByteCount = 1 << 30
    /// Largest sum of all data phases of a conversation kept for replay: 2 GiB.
    public static let maxConversationByteCount = 2 << 30
    /// Most bytes a TCP direction may hold out of order while it waits for a missing segment: 64 MiB (far more
    /// than any receive window).
    public static let maxOutOfOrderByteCount = 64 * 1024 * 1024
    /// Most TCP connections tracked in one capture.
    public static let maxConnectionCount = 4096
    /// Most bytes filled in with zeros, in all, where a capture's snap length cut packets short (see
    /// ``PTPConversation``): a 64-byte packet may claim a 64 MiB transfer, so this bounds what a small hostile
    /// file can make rawcap allocate.
    public static let maxZeroFilledByteCount = 256 * 1024 * 1024
    /// Most transactions rebuilt from one capture.
    public static let maxTransactionCount = 1 << 20
}
