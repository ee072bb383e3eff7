import ArgumentParser
import CameraControl
import Foundation
import Testing

@testable import RawcapCLI

/// The one exit-status table: every code's status, the old names, and the JSON object `--json` prints.
@Suite struct CommandFailureTests {
    @Test func theTableMatchesTheREADME() {
        let statuses = Dictionary(uniqueKeysWithValues: CommandFailure.Code.all.map { ($0.rawValue, $0.status) })
        #expect(
            statuses == [
                "usage": 64, "ambiguous": 64, "badInput": 65, "noInput": 66, "noCamera": 69, "notAvailable": 69,
                "software": 70, "cannotCreate": 73, "io": 74, "busy": 75, "protocolError": 76, "permissionDenied": 77,
                "interrupted": 130, "terminated": 143,
            ])
        #expect(CommandFailure.Code(rawValue: "somethingNew").status == 70)
    }

    @Test func oldNamesStillWork() {
        let fromStatus = CommandFailure(SysExit.noInput, "x.nef: no such file")
        #expect(fromStatus.code == .noInput && fromStatus.status == ExitCode(66))
        let camera: CameraFailure = CameraFailure(.busy, "held")
        #expect(camera.exitCode == ExitCode(75))
        #expect(SysExit.dataError == ExitCode(65) && SysExit.ioError == ExitCode(74) && SysExit.usage == ExitCode(64))
        #expect(SysExit.interrupted == ExitCode(130) && SysExit.permissionDenied == ExitCode(77))
        // A status outside the table is kept, not folded into 70.
        #expect(CommandFailure(ExitCode(71), "os error").status == ExitCode(71))
    }

    @Test func settingErrorsAreUsageAndRefusalsProtocol() {
        #expect(CommandFailure(CameraControlError(.invalidValue, property: "iso", "450")).exitCode == ExitCode(64))
        #expect(CommandFailure(CameraControlError(.unknownProperty, "isp")).exitCode == ExitCode(64))
        #expect(CommandFailure(CameraControlError(.refused, "busy")).exitCode == ExitCode(76))
        #expect(CommandFailure(ValidationError("bad")).exitCode == ExitCode(64))
        #expect(CommandFailure(ExitCode(77)).code == .permissionDenied)
    }

    @Test func jsonIsOneObjectWithStableKeys() throws {
        let failure = CommandFailure(.noCamera, "No camera found on USB.\nCheck the cable.")
        let json = failure.json(command: "info")
        #expect(
            json
                == #"{"error":{"code":"noCamera","command":"info","exitStatus":69,"message":"No camera found on USB.\nCheck the cable."}}"#
        )
        #expect("No camera found on USB.\n  Check the cable.\n".oneLine == "No camera found on USB. Check the cable.")
    }
}
