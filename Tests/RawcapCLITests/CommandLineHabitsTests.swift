import Foundation
import TestSupport
import Testing

@testable import RawcapCLI

/// Habits people bring from gphoto2 and the shell (issue 18, "People"): options before the subcommand, `--interval`
/// without `--count`, and bad input refused with a message that says what to do, prefixed like every error.
@Suite(.serialized) struct CommandLineHabitsTests {
    @Test func optionsBeforeTheSubcommandMoveAfterIt() {
        #expect(RawcapCommand.movingLeadingOptions(["-v", "info"]) == ["info", "-v"])
        #expect(
            RawcapCommand.movingLeadingOptions(["--camera", "sim", "-v", "shoot", "--count", "2"])
                == ["shoot", "--camera", "sim", "-v", "--count", "2"])
        #expect(
            RawcapCommand.movingLeadingOptions(["-v", "sim", "serve", "--listen", ":0"])
                == ["sim", "serve", "-v", "--listen", ":0"])
        #expect(
            RawcapCommand.movingLeadingOptions(["-vv", "config", "get", "iso"]) == ["config", "get", "-vv", "iso"])
        for unchanged in [["info", "-v"], ["--help"], ["--version"], ["-v", "nonsense", "info"], ["-v"]] {
            #expect(RawcapCommand.movingLeadingOptions(unchanged) == unchanged)
        }
    }

    @Test func theBinaryTakesOptionsBeforeTheSubcommand() async throws {
        let folder = try TemporaryDirectory("leading-options")
        let result = try await Subprocess.runDetached(
            try ScriptContractTests.rawcap(),
            ["--camera", "sim", "--sim-sensor", "96x64", "-v", "shoot", "-o", folder.url.path])
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(try folder.contents().contains { $0.hasSuffix(".dng") })
        let info = try await Subprocess.runDetached(
            try ScriptContractTests.rawcap(), ["-v", "info", "--camera", "sim"])
        #expect(info.status == 0, "\(info.errorOutput)")
    }

    @Test(arguments: [
        (["--bracket", "1,,2"], "empty step"),
        (["--count", "-1"], "--count -1: give the number of frames"),
        (["--count", "0"], "--count 0"),
        (["--interval", "soon"], "not a duration"),
        (["--frames", "2"], "rawcap's is --count N"),
        (["--filename", "%Y%m%d-%n"], "rawcap's is --name TEMPLATE"),
    ])
    func badInputIsRefusedWithAMessageThatSaysWhatToDo(arguments: [String], message: String) async throws {
        let folder = try TemporaryDirectory("bad-input")
        let result = try await Subprocess.runDetached(
            try ScriptContractTests.rawcap(), ["shoot", "--camera", "sim", "-o", folder.url.path] + arguments)
        #expect(result.status == 64, "\(result.errorOutput)")
        let first = result.errorOutput.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first.hasPrefix("rawcap shoot: "), "\(result.errorOutput)")
        #expect(first.contains(message), "\(result.errorOutput)")
        #expect(try folder.contents().isEmpty)
    }

    /// An unknown option gets argument-parser's nearest spelling unless it is gphoto2's, which gets rawcap's word
    /// for it, in the JSON error object too.
    @Test func gphoto2OptionsGetRawcapsWords() async throws {
        #expect(RawcapCommand.gphoto2Hint("Error: Unknown option '--bogus'. Did you mean '--name'?\nUsage: x")
            == "Error: Unknown option '--bogus'. Did you mean '--name'?\nUsage: x")
        #expect(RawcapCommand.gphoto2Hint("rawcap ls: Unknown option '--get-all-files'. Did you mean '--all'?\nUsage: x")
            == "rawcap ls: Unknown option '--get-all-files' (gphoto2's); rawcap's is rawcap pull --all.\nUsage: x")
        let json = try await Subprocess.runDetached(
            try ScriptContractTests.rawcap(), ["shoot", "--frames", "2", "--json"])
        #expect(json.status == 64)
        #expect(json.output.contains("rawcap's is --count N") && !json.output.contains("Did you mean"), "\(json.output)")
    }

    /// The shell completions offer the setting names `config` takes and the emulated camera's personalities.
    @Test(arguments: ["bash", "zsh", "fish"])
    func completionsKnowSettingNamesAndModels(shell: String) async throws {
        let result = try await Subprocess.runDetached(
            try ScriptContractTests.rawcap(), ["--generate-completion-script", shell])
        #expect(result.status == 0, "\(result.errorOutput)")
        for word in ["aperture", "aperture=", "bitdepth=", "nikon-no-object-event", "sony-no-pc-remote", "ptpip:"] {
            #expect(result.output.contains(word), "\(shell) completion lacks \(word)")
        }
    }

    /// `-q` prints nothing on standard error but errors; with `--json` the objects still come.
    @Test func quietPrintsOnlyErrors() async throws {
        let folder = try TemporaryDirectory("quiet")
        let rawcap = try ScriptContractTests.rawcap()
        let quiet = try await Subprocess.runDetached(
            rawcap,
            ["shoot", "-q", "--camera", "sim", "--sim-model", "canon", "--format", "bayer12", "--sim-sensor", "96x64",
             "--json", "-o", folder.url.path])
        #expect(quiet.status == 0 && quiet.errorOutput.isEmpty, "\(quiet.errorOutput)")
        #expect(quiet.output.split(separator: "\n").count == 1, "one JSON object: \(quiet.output)")
        let pulled = try await Subprocess.runDetached(
            rawcap, ["pull", "--all", "-q", "--camera", "sim", "-o", folder.url.path])
        #expect(pulled.status == 0 && pulled.errorOutput.isEmpty, "\(pulled.errorOutput)")
        let failing = try await Subprocess.runDetached(
            rawcap, ["shoot", "-q", "--camera", "sim", "--sim-fault", "card-full", "-o", folder.url.path])
        #expect(failing.status == 73)
        #expect(failing.errorOutput.hasPrefix("rawcap shoot: "), "\(failing.errorOutput)")
    }

    /// `--interval` without `--count` shoots until Ctrl-C (not one frame).
    @Test func anIntervalWithoutACountShootsUntilCtrlC() async throws {
        let folder = try TemporaryDirectory("interval-open-ended")
        let result = try await ScriptContractTests.runSignalled(
            "SIGINT", afterLine: true, lines: 3,
            [
                try ScriptContractTests.rawcap(), "shoot", "--camera", "sim", "--sim-sensor", "96x64", "--interval",
                "100ms", "--json", "-o", folder.url.path,
            ])
        #expect(result.status == 130, "\(result.errorOutput)")
        let saved = ScriptContractTests.jsonLines(result.output).filter { $0["path"] != nil }
        #expect(saved.count >= 3, "\(result.output)")
        #expect(result.errorOutput.contains("until Ctrl-C"), "\(result.errorOutput)")
        #expect(!result.errorOutput.contains(" of 2147483647"), "\(result.errorOutput)")
    }
}
