import CameraControl
import CameraEmulator
import Capture
import DNG
import Foundation
import OutputFiles
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

    @Test func aFormatTheCameraCannotGiveListsWhatItCan() throws {
        // A camera that delivers JPEG only, and one with a 12-bit TIFF/EP raw only.
        let jpegOnly = RawFormatCatalog(deviceInfo: DeviceInfo(captureFormats: [.exifJPEG]), bitDepth: nil)
        let error = #expect(throws: CaptureError(.formatUnavailable)) {
            try ResolvedFormat.choose(.bayer14, from: jpegOnly)
        }
        #expect(error?.detail.contains("can give: jpeg") == true, "\(String(describing: error))")
        #expect(throws: CaptureError(.formatUnavailable)) { try ResolvedFormat.choose(.tiff, from: jpegOnly) }
        #expect(try ResolvedFormat.choose(.jpeg, from: jpegOnly).product == .jpeg)
        let twelve = RawFormatCatalog(
            deviceInfo: DeviceInfo(captureFormats: [.tiffEP]),
            bitDepth: DevicePropDesc(
                propertyCode: CameraModel.rawBitDepthCode, dataType: .uint8, getSet: 1, factoryDefaultValue: .uint8(12),
                currentValue: .uint8(12), form: .enumeration([.uint8(12)])))
        let deeper = #expect(throws: CaptureError(.formatUnavailable)) {
            try ResolvedFormat.choose(.bayer16, from: twelve)
        }
        #expect(deeper?.detail.contains("bayer12") == true, "\(String(describing: deeper))")
        let auto = try ResolvedFormat.choose(.auto, from: twelve)
        #expect(auto.rawBitDepth == 12 && auto.product == .bayer && auto.linearFallback)
        #expect(try ResolvedFormat.choose(.linear, from: twelve).product == .linear)
    }

    /// A camera with a maker raw format and no bit depth setting (Canon EOS): bayer14 is its raw at the depth it
    /// writes, checked per frame, not a refusal; the camera's setting is left alone.
    @Test func aFixedDepthCameraTakesAFixedDepthRequest() throws {
        let canon = RawFormatCatalog(
            deviceInfo: DeviceInfo(
                vendorExtensionID: .canon, captureFormats: [ObjectFormatCode(rawValue: 0xB103), .exifJPEG]),
            bitDepth: nil)
        let fourteen = try ResolvedFormat.choose(.bayer14, from: canon)
        #expect(fourteen.product == .bayer && fourteen.rawBitDepth == nil && fourteen.expectedBitDepth == 14)
        #expect(fourteen.description == "bayer14")
        #expect(fourteen.reason.contains("no raw bit depth setting"), "\(fourteen.reason)")
        #expect(try ResolvedFormat.choose(.auto, from: canon).expectedBitDepth == nil)
    }

    @Test func namesNeverOverwriteAndTemplatesExpand() async throws {
        let rig = try await CaptureRig()
        defer { Task { await rig.close() } }
        let namer = try FileNamer(template: "{camera}_{serial}_{n}")
        let first = try await rig.shoot(ShootPlan(format: .bayer12, count: 2, namer: namer))
        let second = try await rig.shoot(ShootPlan(format: .bayer12, count: 1, namer: namer))
        let names = (Array(first.files) + second.files).map { URL(fileURLWithPath: $0.path).lastPathComponent }
        #expect(
            names == [
                "Emulated-Camera_RC0000001_1.dng", "Emulated-Camera_RC0000001_2.dng",
                "Emulated-Camera_RC0000001_1-1.dng",
            ])
    }

    @Test func cameraStringsNeverChooseAPath() {
        #expect(FileNamer.sanitize("../../etc/passwd") == "etc-passwd")
        #expect(FileNamer.sanitize(".hidden") == "hidden")
        #expect(FileNamer.sanitize("a\u{1B}[2Jb\nc") == "a-2Jb-c")
        #expect(FileNamer.sanitize("") == "unnamed")
        #expect(FileNamer.sanitize("/") == "unnamed")
        #expect(throws: CaptureError(.invalidPlan)) { try FileNamer(template: "{nope}") }
        // Subfolders stay inside the output folder.
        for template in ["/etc/{seq}", "a/../{seq}", "a//{seq}", "./{seq}", "{seq}/", "%D", "{date:%c}", "50%"] {
            #expect(throws: CaptureError(.invalidPlan), "\(template)") { try FileNamer(template: template) }
        }
    }

    /// Templates as people write them: letters of every language kept, subfolders, strftime date fields and
    /// gphoto2's `--filename` codes, the camera's own file name; camera strings still sanitised strictly.
    @Test func templatesKeepLettersMakeSubfoldersAndTakeDateCodes() throws {
        var parts = tm()
        parts.tm_year = 2026 - 1900
        parts.tm_mon = 10
        parts.tm_mday = 29
        parts.tm_hour = 7
        parts.tm_min = 5
        parts.tm_sec = 9
        parts.tm_isdst = -1
        let date = Date(timeIntervalSince1970: TimeInterval(mktime(&parts)))
        let values = FileNamer.Values(
            date: date, sequence: 42, frameNumber: 3, camera: "Canon EOS R5/../x", serial: "0123", bracket: nil,
            cameraFile: "DSC_0042.NEF")
        func stem(_ template: String) throws -> String { try FileNamer(template: template).stem(values) }
        #expect(try stem("Hochzeit Müller {n}") == "Hochzeit Müller 3")
        #expect(try stem("Свадьба {seq}") == "Свадьба 0042")
        #expect(try stem("{date}/{seq}") == "20261129/0042")
        #expect(try stem("{date:%Y-%m-%d}/{date:%H%M%S}-{n}") == "2026-11-29/070509-3")
        #expect(try stem("%Y%m%d-%H%M%S-%n") == "20261129-070509-3")
        #expect(try stem("%f.%C") == "DSC_0042", "rawcap adds the extension of what it writes")
        #expect(try stem("{file}-{ext}") == "DSC_0042-NEF")
        #expect(try stem("{camera}") == "Canon-EOS-R5-.-x", "a camera string never makes a subfolder")
        #expect(try stem("100%% {n}") == "100% 3")
        #expect(try stem(".hidden/-dash {n}") == "hidden/dash 3")
        #expect(FileNamer.leaf("2026-11-29/0042") == "0042")
        #expect(FileNamer.sanitize("tab\there\u{202E}x", lenient: true) == "tab-here-x")
        #expect(FileNamer.sanitize(String(repeating: "ü", count: 300), lenient: true).utf8.count <= 200)
    }

    @Test func subfolderTemplatesWriteInsideTheOutputFolder() async throws {
        let rig = try await CaptureRig()
        defer { Task { await rig.close() } }
        let namer = try FileNamer(template: "day/{n}")
        let summary = try await rig.shoot(ShootPlan(format: .bayer12, count: 2, namer: namer))
        let again = try await rig.shoot(ShootPlan(format: .bayer12, count: 1, namer: namer))
        let paths = (Array(summary.files) + again.files).map(\.path)
        #expect(paths.map { URL(fileURLWithPath: $0).lastPathComponent } == ["1.dng", "2.dng", "1-1.dng"], "\(paths)")
        #expect(paths.allSatisfy { URL(fileURLWithPath: $0).deletingLastPathComponent().lastPathComponent == "day" })
        #expect(paths.allSatisfy { FileManager.default.fileExists(atPath: $0) })
    }
}

@Suite(.serialized) struct TIFFShootTests {
    @Test func tiffIsASixteenBitRGBRendering() async throws {
        let rig = try await CaptureRig()
        defer { Task { await rig.close() } }
        let summary = try await rig.shoot(ShootPlan(format: .tiff, count: 1))
        let file = try #require(summary.files.first)
        #expect(file.path.hasSuffix(".tif"))
        #expect(file.format == "tiff")
        let bytes = try RawDecoder.readFile(file.path)
        #expect(bytes.prefix(4) == [0x49, 0x49, 0x2A, 0x00])
        // 16-bit RGB of the default crop: at least width × height × 6 bytes of pixels.
        #expect(bytes.count > 100 * 70 * 6)
    }
}
