/// Upper bounds applied to lengths, counts and depths read from untrusted input, each with its reason.
///
/// A value from the wire is checked against these before anything is allocated, so a hostile or broken camera
/// cannot make rawcap allocate gigabytes or recurse without end.
public enum WireLimits {
    /// Largest element count accepted for a PTP array (`UInt32` count prefix). Real cameras send at most a few
    /// thousand object handles or property values; 1 Mi elements (4 MiB of handles) leaves room for huge cards.
    public static let maxPTPArrayCount = 1 << 20
    /// Largest PTP/IP packet other than Data/End Data payloads carried in a stream: 64 KiB. The largest non-data
    /// packets (Init Command Request/Ack with a 255-unit name) are under 600 bytes.
    public static let maxPTPIPControlPacketLength = 64 * 1024
    /// Largest single PTP/IP Data or End Data packet: 64 MiB. Cameras split objects into packets of 64 KiB to a
    /// few MiB; a larger length is treated as hostile rather than buffered.
    public static let maxPTPIPPacketLength = 64 * 1024 * 1024
    /// Largest data phase kept in memory when the caller asked for the whole phase (datasets, not objects):
    /// 16 MiB. Objects stream to a sink and are limited by ``maxObjectSize`` instead.
    public static let maxInMemoryDataPhase = 16 * 1024 * 1024
    /// Largest object size accepted for a download: 8 GiB, above any raw file a current camera writes.
    public static let maxObjectSize: UInt64 = 8 * 1024 * 1024 * 1024
    /// Deepest chain of nested TIFF IFDs (SubIFDs, EXIF IFD) followed. DNGs nest two levels; 8 leaves room.
    public static let maxIFDDepth = 8
    /// Most IFDs visited in one TIFF file, across chains and SubIFDs.
    public static let maxIFDCount = 64
    /// Most entries accepted in one IFD. Real files carry under 200.
    public static let maxIFDEntries = 4096
    /// Largest raw image accepted from any decoder: 32767 pixels on a side and 400 megapixels in all.
    public static let maxImageDimension = 32767
    /// See ``maxImageDimension``.
    public static let maxImagePixels = 400_000_000
    /// Longest PTP string in code units, including the terminating NUL (the length prefix is one byte).
    public static let maxPTPStringUnits = 255
}
