/// One way the `hostile` camera (``CameraModel/hostile``) attacks its host, chosen with the fault
/// `hostile=NAME` (`--fault hostile=traversal`, `--sim-fault hostile=deep-tiff`; several may be given).
///
/// The hostile camera is the generic camera with a personality that lies: it shoots and stores real frames, then
/// answers GetObjectInfo, GetObject, GetPartialObject or GetDeviceInfo the hostile way. It exists so that tests can
/// show that nothing a camera says makes rawcap write outside its output folder, allocate what the camera claims
/// instead of what arrived, wait past its `--timeout`, or recurse without end.
///
/// | name | what the camera does | what rawcap must do |
/// |---|---|---|
/// | `traversal` | object file names with `../`, absolute paths, NUL, control and escape characters, backslashes, 250 characters | save every frame inside the output folder under a sanitised name (exit 0) |
/// | `huge-length` | ObjectInfo says 0xFFFFFFFE bytes (4 GiB) and the data phase claims 4 GiB and streams | refuse before allocating (exit 65) |
/// | `endless-data` | ObjectInfo tells the truth; the data phase claims 4 GiB and never ends | refuse at the data phase's start, or stop at the announced size (exit 65) |
/// | `silent-data` | the data phase never starts | give up after `--timeout` (exit 74) |
/// | `stalled-data` | 64 KiB of the data phase, then silence with the link open | give up after `--timeout` (exit 74) |
/// | `trickle-data` | 64 KiB, then 512 bytes every half second, never silent long enough to time out | give up when the download falls below rawcap's rate floor (exit 74) |
/// | `trickle-dataset` | GetDeviceInfo's data phase claims 16,000,000 bytes, then one byte every 2 s, each within the timeout | give up about `--timeout` after the data phase began: datasets have a deadline too (exit 74) |
/// | `cyclic-tiff` | raw files whose IFD chain loops back to IFD0 | refuse the file (exit 65) |
/// | `deep-tiff` | raw files whose SubIFDs nest 10,000 levels deep | refuse the file (exit 65) |
/// | `subifd-loop` | raw files whose IFD0 lists itself as its SubIFD | refuse the file (exit 65) |
/// | `bad-offsets` | raw files whose strip offsets and next-IFD point past the end | refuse the file (exit 65) |
/// | `strings` | DeviceInfo and ObjectInfo strings with escape sequences, newlines and 254 characters | print and journal them escaped, one line per message |
public enum HostileBehaviour: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// Object file names that try to leave the output folder or disturb a terminal.
    case traversal
    /// ObjectInfo and the data phase claim 4 GiB.
    case hugeLength = "huge-length"
    /// The data phase claims 4 GiB and never ends.
    case endlessData = "endless-data"
    /// The data phase never starts.
    case silentData = "silent-data"
    /// The data phase starts, then stops with the link open.
    case stalledData = "stalled-data"
    /// The data phase trickles, never quite silent.
    case trickleData = "trickle-data"
    /// GetDeviceInfo's data phase claims 16 MB and sends a byte every 2 s.
    case trickleDataset = "trickle-dataset"
    /// Raw files whose IFD chain is a cycle.
    case cyclicTIFF = "cyclic-tiff"
    /// Raw files with 10,000 nested SubIFDs.
    case deepTIFF = "deep-tiff"
    /// Raw files whose IFD0 is its own SubIFD.
    case subIFDLoop = "subifd-loop"
    /// Raw files whose offsets point past the end.
    case badOffsets = "bad-offsets"
    /// Hostile DeviceInfo and ObjectInfo strings.
    case strings

    /// The name `hostile=` takes.
    public var description: String { rawValue }

    /// Whether the behaviour replaces the raw files' bytes with a crafted TIFF.
    var craftsTIFF: Bool { [.cyclicTIFF, .deepTIFF, .subIFDLoop, .badOffsets].contains(self) }
}
