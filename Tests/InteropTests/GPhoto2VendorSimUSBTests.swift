import Foundation
import RawDecoders
import TestSupport
import Testing

/// gphoto2 against each maker's personality on the fake USB bus, an independent check of each. libgphoto2 picks its
/// code path by USB vendor ID, its `models[]` entry for the product ID, and the VendorExtensionID:
///
/// - `nikon` (04B0:0441 "Nikon DSC D850", extension 10): `camera_nikon_capture`: InitiateCaptureRecInMedia to SDRAM,
///   DeviceReady, Nikon GetEvent, the object at its SDRAM handle, DeleteObject; `nikon-no-object-event` the same, at
///   0xFFFF0001. The product ID gives it libgphoto2's D850 image quality table (7 NEF, 12 NEF+Fine).
/// - `canon` (04A9, 11): `camera_canon_eos_capture`: remote and event mode, UI lock, RemoteReleaseOn 1 then 2,
///   GetEvent records, the object held for the host, TransferComplete.
/// - `sony` (054C:0C34 "Sony Alpha-A7 III (PC Control)", 0x11): the SDIO handshake in `camera_init`, then
///   `camera_sony_capture`: S1 held until FocusFound, S2, ObjectInMemory polled through GetAllDevicePropData, the shot
///   at 0xFFFFC001; the JPEG of RAW+JPEG comes through `camera_wait_for_event` the same way.
/// - `sony-no-pc-remote` (054C:0C03 "… (MTP mode)", a real ILCE-7M3's DeviceInfo in that mode): browsing only;
///   libgphoto2 offers no capture.
/// - `fuji` (04CB:02CD "Fuji Fujifilm X-T2", 0x0E): `camera_fuji_capture`: PriorityMode, CaptureControl focus then
///   shoot with InitiateCapture, AFStatus, the 0xD212 event list and ObjectAdded; files keep the camera's names.
@Suite(.serialized, .timeLimit(.minutes(3))) struct GPhoto2VendorSimUSBTests {
    /// Runs `script` with `sh` under `rawcap sim usb --model MODEL --sensor 640x480` in `folder`, with `$1` the folder
    /// and `$2` gphoto2; `HOME` is the folder, so gphoto2's settings start empty.
    static func runScript(
        _ script: String, model: String, in folder: TemporaryDirectory, extra: [String] = []
    ) async throws -> Subprocess.Result {
        let gphoto2 = try ExternalTool.require("gphoto2")
        try Umockdev.require()
        return try await Subprocess.runDetached(
            try RawcapBinary.path(),
            ["sim", "usb", "--model", model, "--sensor", "640x480"] + extra
                + ["--", "/bin/sh", "-c", "set -e\ncd \"$1\"\n" + script, "sh", folder.url.path, gphoto2],
            environment: ["HOME": folder.url.path], currentDirectory: folder.url)
    }

    @Test func canonCaptureImageAndDownloadTakesTheEOSPathAndGetsA5DMarkIVCR2() async throws {
        let folder = try TemporaryDirectory("sim-usb-canon")
        // "capt0000.cr2" is the name libgphoto2 gives a shot the EOS body held for the host.
        let result = try await Self.runScript(#""$2" --capture-image-and-download"#, model: "canon", in: folder)
        #expect(result.status == 0, "\(result.output)\n\(result.errorOutput)")
        let cr2 = try Data(contentsOf: folder.file("capt0000.cr2"))
        #expect(Array(cr2.prefix(4)) == [0x49, 0x49, 0x2A, 0x00] && Array(cr2[8..<10]) == [0x43, 0x52], "II*, CR")
        let camera = try await DownloadedRawFile.camera("capt0000.cr2", in: folder)
        #expect(camera.make == "Canon" && camera.model == "EOS 5D Mark IV", "\(camera)")
    }

    @Test func captureImageAndDownloadTakesTheNikonPathAndGetsAD850NEF() async throws {
        let folder = try TemporaryDirectory("sim-usb-nikon")
        // libgphoto2 names the file "capt0000.nef" only in its Nikon SDRAM capture; its generic capture would keep
        // the camera's name (DSC_0001.NEF).
        let script = """
            "$2" --auto-detect
            "$2" --summary
            "$2" --get-config imagequality
            "$2" --capture-image-and-download
            """
        let result = try await Self.runScript(script, model: "nikon", in: folder)
        #expect(result.status == 0, "\(result.output)\n\(result.errorOutput)")
        #expect(result.output.contains("Nikon DSC D850"), "models[] entry: \(result.output)")
        #expect(result.output.contains("Manufacturer: Nikon Corporation"), "\(result.output)")
        #expect(result.output.contains("Current: NEF (Raw)"), "libgphoto2 reads the D850's 7 as NEF: \(result.output)")
        #expect(result.output.contains("Choice: 12 NEF+Fine*"), "the D850 table, ★ choices: \(result.output)")
        let nef = try Data(contentsOf: folder.file("capt0000.nef"))
        #expect(Array(nef.prefix(4)) == [0x4D, 0x4D, 0x00, 0x2A], "a big-endian TIFF")
        // rawcap reads what gphoto2 downloaded as a D850 NEF (through LibRaw) and writes its DNG.
        let camera = try await DownloadedRawFile.camera("capt0000.nef", in: folder)
        #expect(camera.make == "Nikon" && camera.model == "D850", "\(camera)")
    }

    /// rawcap and libgphoto2, an independent client, agree about what the D850's numbers mean: a quality rawcap
    /// sets is the one gphoto2 reads and the other way round, a `bayer14` run shoots a NEF and puts the setting back,
    /// and RAW+JPEG pairs a NEF-derived DNG with the camera's JPEG.
    @Test func rawcapAndGphoto2AgreeOnTheD850sImageQuality() async throws {
        let folder = try TemporaryDirectory("sim-usb-nikon-quality")
        let rawcap = try RawcapBinary.path()
        let script = """
            rawcap() { "\(rawcap)" "$@" --camera usb; }
            rawcap config set quality=jpeg-normal
            "$2" --get-config imagequality | grep Current
            rawcap shoot --format bayer14 -o raw
            "$2" --get-config imagequality | grep Current
            rawcap shoot --format bayer12 --keep-jpeg -o pair
            "$2" --get-config imagequality | grep Current
            rawcap config set quality=raw+jpeg
            "$2" --get-config imagequality | grep Current
            "$2" --set-config imagequality="NEF (Raw)"
            rawcap config get quality
            """
        let result = try await Self.runScript(script, model: "nikon", in: folder)
        #expect(result.status == 0, "\(result.output)\n\(result.errorOutput)")
        let lines = result.output.split(separator: "\n").map(String.init).filter {
            $0.hasPrefix("Current:") || $0.hasPrefix("quality=")
        }
        #expect(
            lines == [
                "quality=jpeg-normal", "Current: JPEG Normal", "Current: JPEG Normal", "Current: JPEG Normal",
                "quality=raw+jpeg", "Current: NEF+Fine", "quality=raw",
            ], "\(result.output)\n\(result.errorOutput)")
        for (subfolder, bits, files) in [("raw", 14, 1), ("pair", 12, 2)] {
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.file(subfolder).path)
            #expect(names.filter { !$0.hasPrefix("rawcap-journal") }.count == files, "\(subfolder): \(names)")
            #expect(files == 1 || names.contains { $0.hasSuffix(".jpg") }, "\(names)")
            let dng = try #require(names.first { $0.hasSuffix(".dng") }, "\(subfolder): \(names)")
            let frame = try #require(try RawDecoder.decode(contentsOf: folder.file(subfolder + "/" + dng).path).frame)
            #expect(frame.metadata.model == "D850" && frame.bitsPerSample == bits, "\(subfolder)")
            let journal = try String(contentsOf: folder.file(subfolder + "/rawcap-journal.jsonl"), encoding: .utf8)
            #expect(journal.contains(".NEF"), "a NEF was shot: \(journal)")
        }
    }

    /// `nikon-no-object-event`: with CaptureCompleteRecInSdram and no ObjectAddedInSdram, libgphoto2
    /// `camera_nikon_capture` waits a while longer for the event (100 more polls, about 20 s: its allowance for
    /// Nikon 1 bodies), then fetches the shot at 0xFFFF0001, its default handle, and deletes it there.
    @Test func aNikonThatNeverNamesItsShotIsFetchedAtFFFF0001() async throws {
        let folder = try TemporaryDirectory("sim-usb-nikon-no-event")
        let result = try await Self.runScript(
            #""$2" --capture-image-and-download"#, model: "nikon-no-object-event", in: folder)
        #expect(result.status == 0, "\(result.output)\n\(result.errorOutput)")
        #expect(result.output.contains("Saving file as capt0000.nef"), "\(result.output)")
        let camera = try await DownloadedRawFile.camera("capt0000.nef", in: folder)
        #expect(camera.make == "Nikon" && camera.model == "D850", "\(camera)")
    }

    /// The Sony path end to end: libgphoto2 knows the body by its product ID, reads and sets image quality through
    /// Sony's property operations, and a RAW+JPEG shot arrives as `capt0000.arw` (from `camera_sony_capture`) and
    /// `capt0001.jpg` (from its event wait), both read at 0xFFFFC001.
    @Test func sonySummaryQualityAndRAWPlusJPEGCaptureTakeTheSonyPath() async throws {
        let folder = try TemporaryDirectory("sim-usb-sony")
        let script = """
            "$2" --auto-detect
            "$2" --summary
            "$2" --set-config imagequality="RAW+JPEG (Fine)"
            "$2" --get-config imagequality
            "$2" --capture-image-and-download
            """
        let result = try await Self.runScript(script, model: "sony", in: folder)
        #expect(result.status == 0, "\(result.output)\n\(result.errorOutput)")
        #expect(result.output.contains("Sony Alpha-A7 III (PC Control)"), "models[] entry: \(result.output)")
        #expect(result.output.contains("Sony Capture"), "summary's capture ability: \(result.output)")
        #expect(result.output.contains("Current: RAW+JPEG (Fine)"), "\(result.output)")
        #expect(try folder.contents().filter { $0.hasPrefix("capt") }.sorted() == ["capt0000.arw", "capt0001.jpg"])
        let arw = try Data(contentsOf: folder.file("capt0000.arw"))
        #expect(Array(arw.prefix(4)) == [0x49, 0x49, 0x2A, 0x00], "a little-endian TIFF")
        #expect(try DownloadedRawFile.isJPEG("capt0001.jpg", in: folder))
        let camera = try await DownloadedRawFile.camera("capt0000.arw", in: folder)
        #expect(camera.make == "Sony" && camera.model == "ILCE-7M3", "\(camera)")
    }

    /// The same body outside PC Remote is an MTP device: libgphoto2 lists it as such, browses it and declines to
    /// capture, as it does a real one.
    @Test func aSonyOutsidePCRemoteIsBrowsedButNotTriggered() async throws {
        let folder = try TemporaryDirectory("sim-usb-sony-mtp")
        let script = """
            "$2" --auto-detect
            "$2" --summary
            "$2" --list-files
            "$2" --capture-image-and-download
            """
        let result = try await Self.runScript(script, model: "sony-no-pc-remote", in: folder)
        #expect(result.status != 0, "the capture fails: \(result.output)")
        #expect(result.output.contains("Sony Alpha-A7 III (MTP mode)"), "\(result.output)")
        #expect(result.output.contains("No Image Capture"), "\(result.output)")
        #expect(result.output.contains("There is no file in folder '/store_00010001'"), "\(result.output)")
        #expect(result.errorOutput.contains("does not support generic capture"), "\(result.errorOutput)")
        #expect(try folder.contents().filter { $0.hasPrefix("capt") }.isEmpty)
    }

    /// The Fujifilm path end to end: Quality (0xD018) as libgphoto2's `imageformat`, and a RAW+JPEG shot stored on
    /// the card and downloaded under the camera's names.
    @Test func fujiSummaryQualityAndRAWPlusJPEGCaptureTakeTheFujiPath() async throws {
        let folder = try TemporaryDirectory("sim-usb-fuji")
        let script = """
            "$2" --auto-detect
            "$2" --summary
            "$2" --set-config imageformat="RAW + JPEG Fine"
            "$2" --get-config imageformat
            "$2" --capture-image-and-download
            """
        let result = try await Self.runScript(script, model: "fuji", in: folder)
        #expect(result.status == 0, "\(result.output)\n\(result.errorOutput)")
        #expect(result.output.contains("Fuji Fujifilm X-T2"), "models[] entry: \(result.output)")
        #expect(result.output.contains("Manufacturer: FUJIFILM"), "\(result.output)")
        #expect(result.output.contains("Current: RAW + JPEG Fine"), "\(result.output)")
        #expect(try folder.contents().filter { $0.hasPrefix("DSCF") }.sorted() == ["DSCF0001.JPG", "DSCF0001.RAF"])
        let raf = try Data(contentsOf: folder.file("DSCF0001.RAF"))
        #expect(raf.prefix(16) == Data("FUJIFILMCCD-RAW ".utf8), "RAF magic")
        #expect(try DownloadedRawFile.isJPEG("DSCF0001.JPG", in: folder))
        let camera = try await DownloadedRawFile.camera("DSCF0001.RAF", in: folder)
        #expect(camera.make == "Fujifilm" && camera.model == "X-T2", "\(camera)")
    }
}
