import FoundationEssentials
import PlatformSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Where `rawcap convert` puts the file made from one input: the input's stem plus the output extension, in the
/// output folder (or beside the input), with `-1`, `-2`, … added when that name is taken, because rawcap never
/// overwrites a file.
struct ConvertOutputName {
    /// The most suffixes tried before giving up: far more than a real folder holds, few enough to fail quickly.
    static let maxSuffix = 9999

    /// The folder the file goes into; empty for the current folder (an input named without one).
    let folder: String
    /// The name without a suffix or extension.
    let stem: String
    /// `dng` or `tif`.
    let fileExtension: String

    /// The name for `input` in `folder` (the input's own folder when `nil`).
    init(input: String, folder: String?, fileExtension: String) {
        let url = URL(fileURLWithPath: input)
        let inputFolder = PathText.deletingLastPathComponent(input)
        self.folder = folder ?? inputFolder
        var stem = url.deletingPathExtension().lastPathComponent
        // A dot file such as ".nef" has no stem left; keep something readable rather than a hidden ".dng".
        if stem.isEmpty || stem.hasPrefix(".") { stem = "converted" + stem }
        self.stem = stem
        self.fileExtension = fileExtension
    }

    /// The path with `suffix` (0: none, `n`: `-n`).
    func path(suffix: Int) -> String {
        let name = suffix == 0 ? "\(stem).\(fileExtension)" : "\(stem)-\(suffix).\(fileExtension)"
        if folder.isEmpty { return name }
        return folder.hasSuffix("/") ? folder + name : "\(folder)/\(name)"
    }
}
