#if canImport(Glibc)
    import Glibc
#endif

/// Choices for how a frame becomes a DNG. The defaults give a conforming, uncompressed DNG with digests.
public struct DNGOptions: Sendable, Hashable {
    /// How the raw pixel data is stored.
    public enum Compression: Sendable, Hashable, CustomStringConvertible {
        /// Compression 1, as a single strip. 8-bit data is stored in bytes; 9- to 16-bit data in 16-bit
        /// little-endian containers with WhiteLevel giving the real range (see README "DNG conformance notes").
        case none
        /// Compression 7, lossless JPEG (ITU T.81 process 14, predictor 1) in tiles of ``DNGOptions/tileSize``;
        /// CFA data as two components at half width (dng-facts.md fact 2), linear data as three components.
        case lossless

        /// `none` or `lossless`.
        public var description: String {
            switch self {
            case .none: "none"
            case .lossless: "lossless"
            }
        }
    }

    /// How the raw pixel data is stored; default ``Compression/none``.
    public var compression: Compression
    /// Tile width and height for lossless data, a multiple of 16 (TIFF 6.0 §15); default 256, as dnglab and the
    /// DNG SDK's 128 KiB tiles. Small images get smaller tiles (the image size rounded up to 16).
    public var tileSize: Int
    /// Threads for lossless encoding and the raw digest; default: every online core.
    public var threadCount: Int
    /// Whether to compute NewRawImageDigest and RawDataUniqueID (an MD5 pass over the raw samples); default `true`.
    public var writesRawDigest: Bool
    /// The embedded colour profile's name (DNG ProfileName); default `Embedded`, as the DNG SDK names it.
    public var profileName: String
    /// TIFF Software; default `nil` (nothing written), so the same input gives the same bytes across versions.
    public var software: String?
    /// Whether ``DNGWriter`` also returns the finished file's SHA-256 (``DNGWriter/Result/sha256``), read back on
    /// another thread while the file is synced and published; default `false`.
    public var computesFileSHA256 = false

    /// Creates options.
    public init(
        compression: Compression = .none,
        tileSize: Int = 256,
        threadCount: Int = DNGOptions.onlineCoreCount,
        writesRawDigest: Bool = true,
        profileName: String = "Embedded",
        software: String? = nil
    ) {
        self.compression = compression
        self.tileSize = tileSize
        self.threadCount = threadCount
        self.writesRawDigest = writesRawDigest
        self.profileName = profileName
        self.software = software
    }

    /// The number of online cores (`sysconf(_SC_NPROCESSORS_ONLN)`), at least 1.
    public static var onlineCoreCount: Int { max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))) }
}
