/// The byte order of multi-byte integers in a format.
///
/// PTP and PTP/IP are always little-endian; a TIFF file says which it uses in its first two bytes (`II` or `MM`).
public enum ByteOrder: Sendable, Hashable {
    /// Least significant byte first (`II` in TIFF).
    case little
    /// Most significant byte first (`MM` in TIFF, JPEG marker segments).
    case big
}
