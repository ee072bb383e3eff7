import ArgumentParser

/// The root of rawcap's command tree. Subcommands live one per file as extensions of this type.
public struct RawcapCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "rawcap",
        abstract: "Capture RAW frames from PTP cameras and write them as DNG.",
        version: RawcapVersion.current,
        subcommands: [Info.self, Sim.self, Shoot.self, Pull.self, Ls.self]
    )

    public init() {}
}

/// rawcap's version string, printed by `rawcap --version`.
public enum RawcapVersion {
    /// The current release.
    public static let current = "0.1.0"
}
