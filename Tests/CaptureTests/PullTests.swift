import CameraEmulator
import Capture
import DNG
import Foundation
import OutputFiles
import PTP
import RawDecoders
import Testing

@Suite(.serialized) struct PullTests {
    @Test func pullAllConvertsToDNGAndNewFetchesOnlyWhatIsMissing() async throws {
        let rig = try await CaptureRig()
        defer { Task { await rig.close() } }
        // Shoot straight to the card (as if another program had), then list and pull.
        try await rig.session.setDevicePropValue(.compressionSetting, .uint8(5))
        for _ in 0..<2 {
            try await rig.session.initiateCapture()
            await rig.camera.waitForCapture()
        }
        let journal = try Journal(folder: rig.store.folder)
        let puller = Puller(session: rig.session, store: rig.store, journal: journal, logger: .init(label: "t"))
        let listed = try await puller.list()
        #expect(listed.count == 4)
        let first = try await puller.pull(.handles([listed[0].handle.rawValue]), original: false, deleteAfter: false)
        #expect(first.map(\.format) == ["bayer14"])
        let rest = try await puller.pull(.new, original: false, deleteAfter: false)
        // The second shot's DNG and JPEG, plus the first shot's JPEG (not pulled yet).
        #expect(rest.count == 3, "\(rest.map(\.path))")
        let none = try await puller.pull(.new, original: false, deleteAfter: false)
        #expect(none.isEmpty)
        #expect(try await rig.session.getObjectHandles().count >= 4)
    }

    @Test func originalsKeepTheCamerasBytesAndDeleteAfterRemovesOnlyWhatIsSaved() async throws {
        let rig = try await CaptureRig()
        defer { Task { await rig.close() } }
        try await rig.session.initiateCapture()
        await rig.camera.waitForCapture()
        let puller = try rig.puller()
        let objects = try await puller.list()
        let saved = try await puller.pull(.all, original: true, deleteAfter: true)
        #expect(saved.count == objects.count)
        #expect(saved.allSatisfy { $0.path.hasSuffix(".TIF") || $0.path.hasSuffix(".tif") })
        #expect(try await puller.list().isEmpty)
        #expect(rig.journal.filter { $0.event == "object-deleted" }.count == objects.count)
        // An original is the camera's TIFF/EP, which decodes.
        #expect(try RawDecoder.decode(contentsOf: try #require(saved.first).path).frame != nil)
    }

    @Test func anUnknownHandleIsAnError() async throws {
        let rig = try await CaptureRig()
        defer { Task { await rig.close() } }
        let puller = try rig.puller()
        await #expect(throws: CaptureError(.invalidPlan)) {
            _ = try await puller.pull(.handles([0xDEAD]), original: false, deleteAfter: false)
        }
    }

    /// Issue 7: originals stream into their files as they download (no copy of the object in memory). Each file
    /// holds the camera's bytes with the SHA-256 its record gives; a download cut in the middle leaves the files
    /// saved before it whole and no temporary file.
    @Test(arguments: [CaptureRig.Reach.usb, .ptpipInMemory])
    func issue7_originalsStreamToDiskAndACutDownloadLeavesNoTemporary(reach: CaptureRig.Reach) async throws {
        // 256×192 at 16 bits: about 100 kB per raw file; the link breaks inside the second object's download.
        let rig = try await CaptureRig(
            width: 256, height: 192, faults: [try EmulatorFault(parsing: "disconnect-after=160000")], reach: reach)
        defer { Task { await rig.close() } }
        for _ in 0..<3 {
            try await rig.session.initiateCapture()
            await rig.camera.waitForCapture()
        }
        let puller = try rig.puller()
        let objects = try await puller.list()
        #expect(objects.count == 3)
        await #expect(throws: TransportError(.disconnected)) {
            _ = try await puller.pull(.all, original: true, deleteAfter: false)
        }
        let files = try rig.files()
        #expect(files.count == 1, "\(files)")
        #expect(!files.contains { $0.hasPrefix(".") }, "a temporary file was left: \(files)")
        let written = rig.journal.filter { $0.event == "file-written" }
        #expect(written.count == 1)
        let path = rig.store.path(try #require(files.first))
        #expect(written.first?.sha256 == MessageDigest.hex(try MessageDigest.hashFile(.sha256, at: path)))
        #expect(written.first?.size == objects.first?.info.byteCount)
        #expect(try RawDecoder.decode(contentsOf: path).frame != nil)
    }
}
