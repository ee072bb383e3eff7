import ArgumentParser
import Foundation
import RawDecoders
import TestSupport
import Testing

@testable import RawcapCLI

/// The sensor sizes a vendor personality's raw format holds (`CameraModel.SensorSizeRule`): a size whose shots would
/// never be read (LibRaw refuses the file, or the CR2 writer cannot lay out an odd width) is refused when the camera
/// is made, as a usage error naming the smallest size, instead of a shot that never comes.
@Suite(.serialized) struct SensorSizeTests {
    @Test(arguments: [
        ("nikon", "16x16"), ("nikon", "17x19"), ("nikon", "23x23"), ("nikon-no-object-event", "16x16"),
        ("canon", "16x16"), ("canon", "17x19"), ("canon", "22x30"), ("sony", "16x16"), ("sony", "17x19"),
        ("sony-no-pc-remote", "23x40"), ("fuji", "16x16"), ("fuji", "17x19"), ("fuji", "25x23"),
    ])
    func tooSmallIsAUsageErrorNamingTheSmallestSize(model: String, sensor: String) {
        do {
            _ = try EmulatorSettings(model: model, sensor: sensor).makeCamera()
            Issue.record("\(model) \(sensor) was accepted")
        } catch {
            #expect(RawcapCommand.exitCode(for: error) == ExitCode(64), "\(error)")
            #expect("\(error)".contains("the smallest sensor is 24x24"), "\(error)")
        }
    }

    @Test func anOddCanonWidthIsAUsageError() {
        do {
            _ = try EmulatorSettings(model: "canon", sensor: "601x401").makeCamera()
            Issue.record("canon 601x401 was accepted")
        } catch {
            #expect(RawcapCommand.exitCode(for: error) == ExitCode(64), "\(error)")
            #expect("\(error)".contains("CR2 files, whose width is even"), "\(error)")
            #expect("\(error)".contains("try 602x401"), "\(error)")
        }
    }

    /// Sizes the generic body (TIFF/EP) takes, and even Canon widths: still accepted.
    @Test(arguments: [("generic", "16x16"), ("generic", "17x19"), ("canon", "602x401"), ("nikon", "25x24")])
    func otherSizesAreAccepted(model: String, sensor: String) throws {
        _ = try EmulatorSettings(model: model, sensor: sensor).makeCamera()
    }

    /// The built binary: `rawcap sim serve --model canon --sensor 601x401` exits 64 at start with the reason.
    @Test func simServeRefusesAtStart() async throws {
        let rawcap = try #require(ChildProcess.builtProduct(named: "rawcap"), "rawcap was not built")
        let result = try await Subprocess.runDetached(
            rawcap, ["sim", "serve", "--listen", "127.0.0.1:0", "--model", "canon", "--sensor", "601x401"])
        #expect(result.status == 64, "\(result.errorOutput)")
        #expect(result.errorOutput.contains("whose width is even"), "\(result.errorOutput)")
        #expect(result.output.isEmpty, "nothing listened: \(result.output)")
    }

    /// At the smallest size each vendor body's shot is taken, downloaded and decoded into a DNG.
    @Test(arguments: ["nikon", "canon", "sony", "fuji"])
    func theSmallestSizeShoots(model: String) async throws {
        let folder = try TemporaryDirectory("sensor-\(model)")
        let rawcap = try #require(ChildProcess.builtProduct(named: "rawcap"), "rawcap was not built")
        let result = try await Subprocess.runDetached(
            rawcap,
            ["shoot", "--camera", "sim", "--model", model, "--sim-sensor", "24x24", "--shot-timeout", "20", "-o",
             folder.url.path])
        #expect(result.status == 0, "\(result.errorOutput)")
        let contents = try folder.contents()
        let dngs = contents.filter { $0.hasSuffix(".dng") }
        #expect(dngs.count == 1, "\(contents) \(result.errorOutput)")
        if let dng = dngs.first {
            let frame = try #require(try RawDecoder.decode(contentsOf: folder.file(dng).path).frame)
            #expect(frame.width >= 16 && frame.height >= 16, "\(frame.width)×\(frame.height)")
        }
    }
}
