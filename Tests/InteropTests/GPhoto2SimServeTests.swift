import Foundation
import TestSupport
import Testing

/// Debian's gphoto2, an independent PTP/IP client, against `rawcap sim serve` in a process of its own. gphoto2
/// times out a read after 2.5 s, so these pass only when the emulator answers every request at once. The port is
/// not 15740, so gphoto2 is given it twice (`ptpip:127.0.0.1:PORT:PORT`: it sends the event connection to 15740
/// unless the third field says otherwise).
@Suite(.serialized, .timeLimit(.minutes(3))) struct GPhoto2SimServeTests {
    /// A small sensor keeps shots quick in debug builds; the gphoto2 order announces CaptureComplete after the
    /// first object, so that gphoto2 also downloads the JPEG of a RAW+JPEG shot.
    static let camera = ["--sensor", "640x480", "--event-order", "gphoto2"]

    @Test func summaryShowsTheCameraAndItsCard() async throws {
        let folder = try TemporaryDirectory("gphoto2-sim")
        let server = try await SimServeProcess.start(Self.camera)
        let result = try await GPhoto2.run(port: server.port, ["--summary"], in: folder.url)
        let stopped = await server.stop()
        #expect(result.status == 0, "\(result.output)\n\(result.errorOutput)")
        #expect(result.output.contains("Model: Emulated Camera"))
        #expect(result.output.contains("Manufacturer: rawcap"))
        #expect(result.output.contains("Serial Number: RC0000001"))
        #expect(result.output.contains("RAWCAP"), "the card's volume label")
        #expect(result.output.contains("SD card"), "the card's description")
        #expect(stopped.status == 0, "SIGTERM ends the server cleanly: \(stopped.errorOutput)")
    }

    @Test func listConfigGetAndSetISOAndImageQuality() async throws {
        let folder = try TemporaryDirectory("gphoto2-sim")
        let server = try await SimServeProcess.start(Self.camera)
        let list = try await GPhoto2.run(port: server.port, ["--list-config"], in: folder.url)
        #expect(list.status == 0, "\(list.output)\n\(list.errorOutput)")
        #expect(list.output.contains("/main/imgsettings/iso"), "\(list.output)")
        #expect(list.output.contains("/main/capturesettings/imagequality"), "\(list.output)")

        let iso = try await GPhoto2.run(port: server.port, ["--get-config", "iso"], in: folder.url)
        #expect(iso.status == 0, "\(iso.errorOutput)")
        #expect(iso.output.contains("Current: 100"), "\(iso.output)")
        #expect(iso.output.contains("Choice: 9 800"), "\(iso.output)")
        let setISO = try await GPhoto2.run(port: server.port, ["--set-config", "iso=800"], in: folder.url)
        #expect(setISO.status == 0, "\(setISO.output)\n\(setISO.errorOutput)")
        // A new client (a new gphoto2 process) sees the camera's setting.
        let isoAfter = try await GPhoto2.run(port: server.port, ["--get-config", "iso"], in: folder.url)
        #expect(isoAfter.output.contains("Current: 800"), "\(isoAfter.output)")

        let quality = try await GPhoto2.run(port: server.port, ["--get-config", "imagequality"], in: folder.url)
        #expect(quality.status == 0, "\(quality.errorOutput)")
        // gphoto2 names CompressionSetting values only for Nikon; the generic path shows the raw numbers.
        #expect(quality.output.contains("Current: Unknown value 0004"), "RAW: \(quality.output)")
        #expect(quality.output.contains("Choice: 2 Unknown value 0005"), "\(quality.output)")
        let setQuality = try await GPhoto2.run(
            port: server.port, ["--set-config-index", "imagequality=2"], in: folder.url)
        #expect(setQuality.status == 0, "\(setQuality.output)\n\(setQuality.errorOutput)")
        let qualityAfter = try await GPhoto2.run(port: server.port, ["--get-config", "imagequality"], in: folder.url)
        #expect(qualityAfter.output.contains("Current: Unknown value 0005"), "RAW+JPEG: \(qualityAfter.output)")
        let stopped = await server.stop()
        #expect(stopped.status == 0, "\(stopped.errorOutput)")
    }

    /// RAW+JPEG: gphoto2 downloads both files of the shot, complete and byte for byte what the card holds (fetched
    /// afterwards with rawcap's own client); then `--list-files` and `--get-all-files` see the same card from new
    /// clients.
    @Test func captureRawPlusJPEGListAndGetAllFiles() async throws {
        let folder = try TemporaryDirectory("gphoto2-sim")
        let server = try await SimServeProcess.start(Self.camera)
        let setQuality = try await GPhoto2.run(
            port: server.port, ["--set-config-index", "imagequality=2"], in: folder.url)
        #expect(setQuality.status == 0, "\(setQuality.output)\n\(setQuality.errorOutput)")
        let capture = try await GPhoto2.run(
            port: server.port, ["--capture-image-and-download", "--keep", "--filename", "shot-%f.%C"], in: folder.url)
        #expect(capture.status == 0, "\(capture.output)\n\(capture.errorOutput)")
        #expect(capture.output.contains("Saving file as shot-RCAP0001.TIF"), "\(capture.output)")
        #expect(capture.output.contains("Saving file as shot-RCAP0001.JPG"), "\(capture.output)")

        let list = try await GPhoto2.run(port: server.port, ["--list-files"], in: folder.url)
        #expect(list.status == 0, "\(list.output)\n\(list.errorOutput)")
        #expect(list.output.contains("RCAP0001.TIF"), "\(list.output)")
        #expect(list.output.contains("RCAP0001.JPG"), "\(list.output)")

        let all = try TemporaryDirectory("gphoto2-sim-all")
        let getAll = try await GPhoto2.run(port: server.port, ["--get-all-files"], in: all.url)
        #expect(getAll.status == 0, "\(getAll.output)\n\(getAll.errorOutput)")

        let card = try await CardContents.fetch(port: server.port)
        let stopped = await server.stop()
        #expect(stopped.status == 0, "\(stopped.errorOutput)")

        #expect(Set(card.files.keys) == ["RCAP0001.TIF", "RCAP0001.JPG"])
        for (name, file) in card.files {
            #expect(file.bytes.count == Int(file.info.objectCompressedSize), "\(name) is whole on the card")
            let stem = name.prefix { $0 != "." }
            let suffix = name.split(separator: ".").last.map(String.init) ?? ""
            let captured = try Data(contentsOf: folder.file("shot-\(stem).\(suffix)"))
            #expect(Array(captured) == file.bytes, "capture-image-and-download: \(name)")
            let fetched = try Data(contentsOf: all.file(name))
            #expect(Array(fetched) == file.bytes, "get-all-files: \(name)")
        }
        // The raw file is a TIFF (little-endian) and the JPEG a JPEG, from first byte to last.
        let raw = try #require(card.files["RCAP0001.TIF"]).bytes
        #expect(raw.prefix(4) == [0x49, 0x49, 0x2A, 0x00])
        let jpeg = try #require(card.files["RCAP0001.JPG"]).bytes
        #expect(jpeg.prefix(2) == [0xFF, 0xD8] && jpeg.suffix(2) == [0xFF, 0xD9])
    }

    /// The Sony personality over standard PTP/IP: libgphoto2 has no Sony Wi-Fi model, so it is the generic "PTP/IP
    /// Camera" whose VendorExtensionID (0x11) sends it down the same Sony path as on USB: the SDIO handshake,
    /// quality through Sony's property operations, S1/S2 and 0xFFFFC001 for both files of a RAW+JPEG shot.
    @Test func sonyOverPTPIPSummaryQualityAndRAWPlusJPEGCapture() async throws {
        let folder = try TemporaryDirectory("gphoto2-sim-sony")
        let server = try await SimServeProcess.start(["--model", "sony", "--sensor", "640x480"])
        let summary = try await GPhoto2.run(port: server.port, ["--summary"], in: folder.url)
        let setQuality = try await GPhoto2.run(
            port: server.port, ["--set-config", "imagequality=RAW+JPEG (Fine)"], in: folder.url)
        let capture = try await GPhoto2.run(port: server.port, ["--capture-image-and-download"], in: folder.url)
        let stopped = await server.stop()
        #expect(summary.status == 0, "\(summary.output)\n\(summary.errorOutput)")
        #expect(summary.output.contains("Model: ILCE-7M3"), "\(summary.output)")
        #expect(summary.output.contains("Sony Capture"), "\(summary.output)")
        #expect(setQuality.status == 0, "\(setQuality.output)\n\(setQuality.errorOutput)")
        #expect(capture.status == 0, "\(capture.output)\n\(capture.errorOutput)")
        #expect(stopped.status == 0, "\(stopped.errorOutput)")
        #expect(try folder.contents().filter { $0.hasPrefix("capt") }.sorted() == ["capt0000.arw", "capt0001.jpg"])
        #expect(try DownloadedRawFile.isJPEG("capt0001.jpg", in: folder))
        let camera = try await DownloadedRawFile.camera("capt0000.arw", in: folder)
        #expect(camera.make == "Sony" && camera.model == "ILCE-7M3", "\(camera)")
    }
}
