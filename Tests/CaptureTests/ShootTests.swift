import CameraEmulator
import Capture
import DNG
import Foundation
import PTP
import RawDecoders
import RawImage
import Testing

/// `rawcap shoot`'s engine against the emulated camera, through the real USB framing.
@Suite(.serialized) struct ShootTests {
    @Test func threeRawPlusJPEGFramesArePairedAndJournaled() async throws {
        let rig = try await CaptureRig()
        defer { Task { await rig.close() } }
        let summary = try await rig.shoot(ShootPlan(format: .auto, count: 3, keepJPEG: true, compression: .lossless))
        #expect(summary.format.description == "bayer16")
        #expect(summary.files.count == 6)
        let files = try rig.files()
        #expect(files.count == 6, "\(files)")
        #expect(!files.contains { $0.hasPrefix(".") }, "no temporary left: \(files)")
        let stems = Set(files.map { String($0.split(separator: ".")[0]) })
        #expect(stems.count == 3)
        for stem in stems {
            #expect(files.contains(stem + ".dng") && files.contains(stem + ".jpg"), "\(stem) paired")
            let path = rig.store.path(stem + ".dng")
            let decoded = try RawDecoder.decode(contentsOf: path)
            let frame = try #require(decoded.frame)
            #expect(frame.bitsPerSample == 16)
            #expect(frame.width == 128 && frame.height == 96)
            #expect(frame.metadata.make == "rawcap")
            // The camera's JPEG is the DNG's preview, byte for byte.
            let bytes = try RawDecoder.readFile(path)
            let jpeg = try RawDecoder.readFile(rig.store.path(stem + ".jpg"))
            let preview = try #require(try RawDecoder.embeddedPreview(bytes[...]))
            guard case .jpeg(let previewBytes, _, _) = preview else {
                Issue.record("the preview is not a JPEG")
                continue
            }
            #expect(previewBytes == jpeg)
        }
        // SHA-256 in the report is the file's.
        for file in summary.files {
            #expect(MessageDigest.hex(try MessageDigest.hashFile(.sha256, at: file.path)) == file.sha256)
        }
        let journal = rig.journal
        #expect(journal.filter { $0.event == "shot-requested" }.count == 3)
        #expect(journal.filter { $0.event == "object-announced" }.count == 6)
        #expect(journal.filter { $0.event == "file-written" }.count == 6)
        #expect(journal.last?.event == "run-finished")
        // Quality restored: the camera was RAW (4) before the run.
        #expect(try await rig.value(.compressionSetting) == .uint8(4))
    }

    @Test(arguments: [OutputFormat.bayer12, .bayer14, .bayer16])
    func bayerDepthsAreSetAndRestored(format: OutputFormat) async throws {
        let rig = try await CaptureRig()
        defer { Task { await rig.close() } }
        let summary = try await rig.shoot(ShootPlan(format: format, count: 1))
        let file = try #require(summary.files.first)
        #expect(file.format == format.rawValue)
        let frame = try #require(try RawDecoder.decode(contentsOf: file.path).frame)
        #expect(frame.bitsPerSample == format.bayerBitDepth)
        #expect(try await rig.value(CameraModel.rawBitDepthCode) == .uint8(14))
        #expect(try rig.files() == [URL(fileURLWithPath: file.path).lastPathComponent])
    }

    @Test func linearIsADemosaicedDNG() async throws {
        let rig = try await CaptureRig()
        defer { Task { await rig.close() } }
        let summary = try await rig.shoot(ShootPlan(format: .linear, count: 1))
        let file = try #require(summary.files.first)
        let decoded = try RawDecoder.decode(contentsOf: file.path)
        let image = try #require(decoded.linearImage)
        #expect(image.samples.count == image.width * image.height * 3)
        #expect(file.format == "linear")
    }

    @Test func jpegIsTheCamerasJPEG() async throws {
        let rig = try await CaptureRig()
        defer { Task { await rig.close() } }
        let summary = try await rig.shoot(ShootPlan(format: .jpeg, count: 2))
        #expect(summary.files.count == 2)
        for file in summary.files {
            #expect(file.path.hasSuffix(".jpg"))
            let bytes = try RawDecoder.readFile(file.path)
            #expect(bytes.prefix(2) == [0xFF, 0xD8])
        }
        #expect(try await rig.value(.compressionSetting) == .uint8(4))
    }

    @Test func aFormatTheCameraCannotGiveListsWhatItCan() async throws {
        let rig = try await CaptureRig()
        defer { Task { await rig.close() } }
        // The emulator's raw is 12, 14 or 16 bits: ask the catalog for a depth it lacks.
        let catalog = FormatCatalog(
            qualities: [.jpeg], currentQuality: .jpeg, rawBitDepths: [], offersRaw: false, offersJPEG: true)
        let error = #expect(throws: CaptureError(.formatUnavailable)) { try catalog.resolve(.bayer14) }
        #expect(error?.detail.contains("can give: jpeg") == true, "\(String(describing: error))")
        let twelve = FormatCatalog(
            qualities: [.raw], currentQuality: .raw, rawBitDepths: [12], offersRaw: true, offersJPEG: false)
        let deeper = #expect(throws: CaptureError(.formatUnavailable)) { try twelve.resolve(.bayer16) }
        #expect(deeper?.detail.contains("bayer12") == true)
        #expect(try twelve.resolve(.auto).rawBitDepth == 12)
        #expect(try rig.files().isEmpty)
    }

    @Test func namesNeverOverwriteAndTemplatesExpand() async throws {
        let rig = try await CaptureRig()
        defer { Task { await rig.close() } }
        let namer = try FileNamer(template: "{camera}_{serial}_{n}")
        let first = try await rig.shoot(ShootPlan(format: .bayer12, count: 2, namer: namer))
        let second = try await rig.shoot(ShootPlan(format: .bayer12, count: 1, namer: namer))
        let names = (first.files + second.files).map { URL(fileURLWithPath: $0.path).lastPathComponent }
        #expect(names == ["Emulated-Camera_RC0000001_1.dng", "Emulated-Camera_RC0000001_2.dng", "Emulated-Camera_RC0000001_1-1.dng"])
    }

    @Test func cameraStringsNeverChooseAPath() {
        #expect(FileNamer.sanitize("../../etc/passwd") == "etc-passwd")
        #expect(FileNamer.sanitize(".hidden") == "hidden")
        #expect(FileNamer.sanitize("a\u{1B}[2Jb\nc") == "a-2Jb-c")
        #expect(FileNamer.sanitize("") == "unnamed")
        #expect(FileNamer.sanitize("/") == "unnamed")
        #expect(throws: CaptureError(.invalidPlan)) { try FileNamer(template: "a/{seq}") }
        #expect(throws: CaptureError(.invalidPlan)) { try FileNamer(template: "{nope}") }
    }
}
