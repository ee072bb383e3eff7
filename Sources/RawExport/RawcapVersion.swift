/// rawcap's version string, printed by `rawcap --version` and written in every file's Software tag
/// (``Exporter/software``).
public enum RawcapVersion {
    /// The current release.
    public static let current = "0.1.0"
}
