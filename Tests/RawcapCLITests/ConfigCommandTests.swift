import Foundation
import TestSupport
import Testing

/// `rawcap config`, `rawcap list`, `rawcap info`'s raw formats, logging flags and exit codes, run as the built
/// binary against the emulated camera (`--camera sim`).
@Suite(.serialized) struct ConfigCommandTests {
    static func rawcap(_ arguments: [String]) async throws -> Subprocess.Result {
        let path = try #require(ChildProcess.builtProduct(named: "rawcap"), "the rawcap binary was not built")
        return try await Subprocess.runDetached(path, arguments)
    }

    static func json(_ result: Subprocess.Result) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: result.stdout)
        return try #require(object as? [String: Any], "\(result.output)")
    }

    @Test func configListShowsValuesAndAllowedValues() async throws {
        let result = try await Self.rawcap(["config", "list", "--camera", "sim"])
        #expect(result.status == 0, "\(result.errorOutput)")
        let lines = result.output.split(separator: "\n")
        let iso = try #require(lines.first { $0.hasPrefix("iso ") })
        #expect(iso.contains("100") && iso.contains("25600"))
        let shutter = try #require(lines.first { $0.hasPrefix("shutter ") })
        #expect(shutter.contains("1/125") && shutter.contains("1/2000"))
        #expect(lines.contains { $0.hasPrefix("bitdepth ") && $0.hasSuffix("12, 14, 16") })
        #expect(lines.contains { $0.hasPrefix("battery ") && $0.contains("(read-only)") })

        let json = try await Self.rawcap(["config", "list", "--camera", "sim", "--json"])
        let properties = try #require(try Self.json(json)["properties"] as? [[String: Any]])
        let quality = try #require(properties.first { $0["name"] as? String == "quality" })
        #expect(quality["allowed"] as? [String] == ["jpeg", "raw", "raw+jpeg"])
        #expect(quality["code"] as? String == "0x5004")
    }

    /// A Nikon's quality is named by its body's numbering: the `nikon` personality is a D850, whose NEF is 7 and
    /// NEF + Fine 12 (the generic names would read 7 as something else entirely).
    @Test func aNikonsQualityIsNamedByItsBodysNumbering() async throws {
        let result = try await Self.rawcap(["config", "list", "--camera", "sim", "--model", "nikon", "--json"])
        #expect(result.status == 0, "\(result.errorOutput)")
        let properties = try #require(try Self.json(result)["properties"] as? [[String: Any]])
        let quality = try #require(properties.first { $0["name"] as? String == "quality" }, "\(properties)")
        #expect(quality["value"] as? String == "raw" && quality["rawValue"] as? Int == 7, "\(quality)")
        let allowed = try #require(quality["allowed"] as? [String])
        #expect(allowed.contains("raw+jpeg") && allowed.contains("jpeg-fine*") && !allowed.contains("7"))
        let set = try await Self.rawcap(["config", "set", "quality=raw+jpeg", "--camera", "sim", "--model", "nikon"])
        #expect(set.status == 0 && set.output == "quality=raw+jpeg\n", "\(set.output)\(set.errorOutput)")
    }

    @Test func configGetAndSetPrintAssignmentsThatRoundTrip() async throws {
        let get = try await Self.rawcap(["config", "get", "iso", "shutter", "aperture", "wb", "--camera", "sim"])
        #expect(get.status == 0, "\(get.errorOutput)")
        #expect(get.output == "iso=100\nshutter=1/125\naperture=f/8\nwb=auto\n")

        let set = try await Self.rawcap([
            "config", "set", "iso=400", "shutter=1/250", "aperture=f/5.6", "wb=daylight", "ev=-1/3",
            "quality=raw+jpeg", "bitdepth=12", "target=sdram", "0x5005=6", "--camera", "sim",
        ])
        #expect(set.status == 0, "\(set.errorOutput)")
        #expect(
            set.output
                == "iso=400\nshutter=1/250\naperture=f/5.6\nwb=daylight\nev=-1/3\nquality=raw+jpeg\nbitdepth=12\n"
                + "target=sdram\n0x5005=6\n")
    }

    @Test func badValuesExit64WithTheAllowedValuesOnOneLine() async throws {
        let result = try await Self.rawcap(["config", "set", "iso=450", "--camera", "sim"])
        #expect(result.status == 64)
        #expect(result.output.isEmpty)
        let lines = result.errorOutput.split(separator: "\n")
        #expect(lines.count == 1, "\(result.errorOutput)")
        #expect(
            lines.first?.hasPrefix("rawcap config set: iso: 450 is not a value the camera allows; allowed: 100") == true
        )

        let json = try await Self.rawcap(["config", "get", "focus", "--camera", "sim", "--json"])
        #expect(json.status == 64)
        let error = try #require(try Self.json(json)["error"] as? [String: Any])
        #expect(error["code"] as? String == "usage")
        #expect(error["exitStatus"] as? Int == 64)
        #expect((error["message"] as? String)?.contains("does not have") == true)

        let malformed = try await Self.rawcap(["config", "set", "iso", "--camera", "sim"])
        #expect(malformed.status == 64)

        // A command line that does not parse still gives scripts a JSON object with --json.
        let unparsed = try await Self.rawcap(["config", "set", "--json", "--log-level", "loud"])
        #expect(unparsed.status == 64)
        let usage = try #require(try Self.json(unparsed)["error"] as? [String: Any])
        #expect(usage["code"] as? String == "usage")
        #expect(usage["command"] as? String == "config set")
        #expect((usage["message"] as? String)?.contains("loud") == true)
        #expect(unparsed.errorOutput.contains("Usage: rawcap config set"))
    }

    @Test func infoListsTheRawFormats() async throws {
        let text = try await Self.rawcap(["info", "--camera", "sim"])
        #expect(text.status == 0, "\(text.errorOutput)")
        #expect(text.output.contains("Raw formats\n  bayer16  Bayer data as TIFF_EP, 16 bits per sample (bitdepth=16)"))
        #expect(text.output.contains("  auto: bayer16: Bayer data is the purest"))
        let json = try Self.json(try await Self.rawcap(["info", "--camera", "sim", "--json"]))
        let formats = try #require(json["rawFormats"] as? [[String: Any]])
        #expect(formats.compactMap { $0["format"] as? String } == ["bayer16", "bayer14", "bayer12", "linear", "jpeg"])
        #expect((json["rawFormatAuto"] as? [String: Any])?["format"] as? String == "bayer16")
    }

    /// What `info` prints is what a person reads and what `config` takes: `f/8`, `1/125 s`, `ISO 100`, setting names
    /// first, the camera's names and codes after them; `-v` shows the wire values.
    @Test func infoShowsReadableValuesAndVerboseTheWireValues() async throws {
        let text = try await Self.rawcap(["info", "--camera", "sim"])
        #expect(text.status == 0, "\(text.errorOutput)")
        #expect(text.output.contains("PTP           1.00, no vendor extension\n"))
        #expect(text.output.contains(#/\n  aperture +f/8 +read/write +one of 23: f/1.8, .*f/22  FNumber 0x5007\n/#))
        #expect(text.output.contains(#/\n  shutter +1/125 s +read/write +one of 49: 1/2000 s, .* 30 s  ExposureTime 0x500D\n/#))
        #expect(text.output.contains(#/\n  iso +ISO 100 +read/write +one of 25: ISO 100, /#))
        #expect(text.output.contains(#/\n  bitdepth +14 +read/write +one of 12, 14, 16  \n/#) == false)
        let verbose = try await Self.rawcap(["info", "--camera", "sim", "-v"])
        #expect(verbose.output.contains(#/\n  FNumber +0x5007 +800 +read/write +one of 23: 180, /#))
    }

    /// A Nikon's own settings have names `config` takes and values it reads (libgphoto2 `config.c`): the raw bit depth
    /// that `info`'s raw formats tell the user to set, the capture target, and Nikon's focus and drive modes; its raw
    /// shots are named NEF, not "Undefined".
    @Test func aNikonsOwnSettingsHaveNames() async throws {
        let set = try await Self.rawcap([
            "config", "set", "bitdepth=12", "target=sdram", "--camera", "sim", "--model", "nikon",
        ])
        #expect(set.status == 0 && set.output == "bitdepth=12\ntarget=sdram\n", "\(set.output)\(set.errorOutput)")
        let list = try await Self.rawcap(["config", "list", "--camera", "sim", "--model", "nikon", "--json"])
        let properties = try #require(try Self.json(list)["properties"] as? [[String: Any]])
        let depth = try #require(properties.first { $0["name"] as? String == "bitdepth" }, "\(properties)")
        #expect(depth["code"] as? String == "0xD149" && depth["allowed"] as? [String] == ["12", "14"])
        let focus = try #require(properties.first { $0["name"] as? String == "focus" })
        #expect((focus["allowed"] as? [String])?.contains("af-s") == true)
        let info = try await Self.rawcap(["info", "--camera", "sim", "--model", "nikon"])
        #expect(info.output.contains("  bayer14  Bayer data as NEF (0x3000), 14 bits per sample (bitdepth=14)"))

        // An unknown name lists the settings that have names, not the hundreds of bare codes.
        let unknown = try await Self.rawcap(["config", "set", "nosuch=1", "--camera", "sim", "--model", "nikon"])
        #expect(unknown.status == 64)
        #expect(unknown.errorOutput.contains("bitdepth") && !unknown.errorOutput.contains("0xD303"), "\(unknown.errorOutput)")
    }

    /// A Sony body outside PC Remote describes no setting: `config` says how to switch, as `shoot` does (69).
    @Test func aSonyOutsidePCRemoteGetsTheAdviceFromConfig() async throws {
        let result = try await Self.rawcap(["config", "list", "--camera", "sim", "--model", "sony-no-pc-remote"])
        #expect(result.status == 69, "\(result.output)\(result.errorOutput)")
        #expect(result.output.isEmpty)
        #expect(result.errorOutput.contains("not in PC Remote mode") && result.errorOutput.contains("\"PC Remote\""))
        let json = try await Self.rawcap([
            "config", "get", "iso", "--camera", "sim", "--model", "sony-no-pc-remote", "--json",
        ])
        let error = try #require(try Self.json(json)["error"] as? [String: Any])
        #expect(error["exitStatus"] as? Int == 69 && error["command"] as? String == "config get", "\(error)")
    }

    /// A Canon EOS sets image quality in its remote session (ImageFormat 0xD120 through SetDevicePropValueEx), not as
    /// a property: `config` reaches it through the capture profile's quality control, and the next command on the
    /// same camera (one emulated body on the fake USB bus) reads what was set and can shoot.
    @Test func aCanonEOSQualityIsReadAndSetThroughItsRemoteSession() async throws {
        let rawcap = try #require(ChildProcess.builtProduct(named: "rawcap"), "the rawcap binary was not built")
        let bash = try ExternalTool.require("bash")
        let folder = try TemporaryDirectory("canon-quality")
        let script = """
            r="$1"; d="$2"
            "$r" config get quality
            "$r" config set quality=raw+jpeg iso=400
            "$r" config get quality iso
            "$r" config set quality=tiff 2>/dev/null; echo "tiff=$?"
            "$r" shoot --keep-jpeg -o "$d" >/dev/null 2>&1; echo "shoot=$?"
            """
        let result = try await Subprocess.runDetached(
            rawcap, ["sim", "usb", "--model", "canon", "--sensor", "160x120", "--", bash, "-c", script, "bash", rawcap,
                     folder.url.path])
        #expect(
            result.output == "quality=raw\nquality=raw+jpeg\niso=400\nquality=raw+jpeg\niso=400\ntiff=64\nshoot=0\n",
            "\(result.output)\(result.errorOutput)")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
        #expect(files.filter { $0.hasSuffix(".dng") || $0.hasSuffix(".jpg") }.count == 2, "RAW+JPEG: \(files)")
    }

    @Test func listShowsTheEmulatedCamera() async throws {
        let result = try await Self.rawcap(["list", "--json"])
        #expect(result.status == 0, "\(result.errorOutput)")
        let cameras = try #require(try Self.json(result)["cameras"] as? [[String: Any]])
        let sim = try #require(cameras.last)
        #expect(sim["selector"] as? String == "sim")
        #expect(sim["canOpen"] as? Bool == true)
        #expect(sim["model"] as? String == "Emulated Camera")
        let text = try await Self.rawcap(["list"])
        #expect(text.output.contains("sim  rawcap Emulated Camera, serial RC0000001  ok"))
    }

    @Test func loggingFlagsChooseTheLevel() async throws {
        let quiet = try await Self.rawcap(["config", "get", "iso", "--camera", "sim"])
        #expect(quiet.errorOutput.isEmpty)
        let debug = try await Self.rawcap(["config", "get", "iso", "--camera", "sim", "--log-level", "debug"])
        #expect(debug.errorOutput.contains("GetDevicePropDesc"))
        #expect(!debug.errorOutput.contains("USB OUT"))
        let trace = try await Self.rawcap(["config", "get", "iso", "--camera", "sim", "--debug"])
        #expect(trace.errorOutput.contains("USB OUT"))
        #expect(trace.errorOutput.contains("0c 00 00 00 01 00 01 10"), "GetDeviceInfo's container, hex-dumped")
        let bad = try await Self.rawcap(["config", "get", "iso", "--camera", "sim", "--log-level", "loud"])
        #expect(bad.status == 64)
    }
}

/// Ctrl-C: the command closes the session and exits 130 with one line (and JSON with `--json`).
@Suite(.serialized) struct InterruptTests {
    /// Sent half a second into the session, and the moment rawcap has taken SIGINT over (a handler registered
    /// later than that, as a Dispatch signal source is, would lose the press or let it kill the process).
    @Test(arguments: [["config", "list"], ["info"]], [0.5, 0])
    func sigintExits130(command: [String], delay: Double) async throws {
        let rawcap = try #require(ChildProcess.builtProduct(named: "rawcap"), "the rawcap binary was not built")
        let python = try ExternalTool.require("python3")
        // python3 delivers the signal to the child itself (a shell's background job would ignore SIGINT), and
        // reports a death by signal as a negative status, so 130 means rawcap exited on its own.
        let script = """
            import os, signal, subprocess, sys, time
            child = subprocess.Popen(sys.argv[2:], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            # Wait until rawcap has taken SIGINT over (a handler: bit 1 of SigCgt, or of SigIgn), however slowly a
            # loaded machine starts it. The process must be rawcap by then: between fork and exec it is still a copy
            # of python, whose own SIGINT handler sets the same bit, and a signal sent then kills the rawcap that
            # exec starts.
            target = os.path.realpath(sys.argv[2])
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                try:
                    started = os.path.realpath(f"/proc/{child.pid}/exe") == target
                except OSError:
                    started = False
                with open(f"/proc/{child.pid}/status") as status:
                    masks = [int(l.split()[1], 16) for l in status if l.startswith(("SigIgn:", "SigCgt:"))]
                if started and any(mask & 2 for mask in masks):
                    break
                time.sleep(0.02)
            time.sleep(float(sys.argv[1]))
            child.send_signal(signal.SIGINT)
            out, err = child.communicate(timeout=60)
            sys.stdout.write(str(child.returncode) + "\\n" + out.decode())
            sys.stderr.write(err.decode())
            """
        // The emulated camera sends 20 bytes a second, so DeviceInfo alone takes longer than the wait.
        let arguments = ["-c", script, String(delay), rawcap] + command
        let result = try await Subprocess.runDetached(
            python, arguments + ["--camera", "sim", "--sim-fault", "slow=20B/s", "--json"])
        let lines = result.output.split(separator: "\n")
        #expect(lines.first == "130", "\(result.output) \(result.errorOutput)")
        #expect(lines.dropFirst().first?.contains(#""code":"interrupted""#) == true)
        let name = command.joined(separator: " ")
        #expect(result.errorOutput == "rawcap \(name): interrupted (Ctrl-C); the camera session was closed\n")
    }
}
