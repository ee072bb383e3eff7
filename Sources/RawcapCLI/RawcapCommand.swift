import ArgumentParser
import RawExport

/// The root of rawcap's command tree. Subcommands live one per file as extensions of this type.
public struct RawcapCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "rawcap",
        abstract: "Capture RAW frames from PTP cameras and write them as DNG.",
        discussion: """
            Exit status (sysexits): 0 success; 64 usage error (bad arguments, an unknown setting or a value the \
            camera does not allow, several cameras and no --camera); 65 bad input file; 66 missing input file; 69 \
            no camera found; 70 internal error; 73 cannot create an output file; 74 I/O error or the camera \
            disconnected; 75 the camera is busy (another program holds it); 76 protocol error (the camera broke \
            PTP or refused); 77 permission denied (install the udev rule); 130 interrupted; 143 terminated \
            (SIGTERM). A failure prints one line on standard error, and with --json a JSON object {"error": \
            {"code", "command", "exitStatus", "message"}} on standard output (docs/json.md lists every key). \
            Options may come before the subcommand: rawcap -v info.
            """,
        version: RawcapVersion.current,
        subcommands: [
            Info.self, List.self, Config.self, Sim.self, Replay.self, Convert.self, Inspect.self, Shoot.self, Tether.self,
            Pull.self, Ls.self, Live.self, Focus.self, DecodeWorker.self,
        ]
    )

    public init() {}
}
