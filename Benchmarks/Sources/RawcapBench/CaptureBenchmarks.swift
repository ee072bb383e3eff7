import CameraEmulator
import Capture
import Dispatch
import Foundation
import PTP

/// Shot-to-disk time of a RAW+JPEG shot from the emulated camera (6000 × 4000 by default, over the in-memory USB
/// link with the real framing), against its parts measured in the same run: the capture alone (trigger until
/// every object is announced: the emulator renders the scene), the download alone (both objects with
/// GetPartialObject) and the encode alone (decode the TIFF/EP, write the DNG with the camera's JPEG as preview,
/// save the JPEG). The pipeline overlaps shot k + 1's capture and download with shot k's encode, so its time per
/// frame should be under the sum of the parts.
enum CaptureBenchmarks: BenchmarkGroup {
    static let name = "Capture"
    /// Frames per pipeline run: enough for the overlap to show.
    static let pipelineFrames = 3

    static func makeRows(options: BenchmarkOptions) throws -> [BenchmarkRow] {
        let width = options.frameWidth
        let height = options.frameHeight
        let bytes = width * height * 2
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "rawcap-bench-\(UInt32.random(in: 0...UInt32.max))"
        ).path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let camera = try EmulatedCamera(
            model: .generic,
            configuration: .init(sensorWidth: width, sensorHeight: height, cardCapacity: 1 << 40))
        let link = EmulatorLink.usb(camera)
        let session = PTPSession(transport: link.transport, configuration: .init(timeout: .seconds(120)))
        let store = try OutputStore(folder: folder)
        let journal = try Journal(folder: folder)
        let driver = StandardCaptureDriver()
        let timing = CaptureTiming(shotTimeout: .seconds(120))

        // One shot on the card, downloaded once: the input of the download and encode rows.
        let objects = try blocking {
            try await session.openSession()
            try await session.setDevicePropValue(.compressionSetting, .uint8(5))  // RAW+JPEG
            return try await driver.capture(session: session, expecting: 2, timing: timing) { _ in }
        }
        guard let raw = objects.first(where: { !$0.isJPEG }), let jpeg = objects.first(where: \.isJPEG) else {
            throw BenchmarkError("the emulated camera did not store RAW+JPEG")
        }
        let downloader = ObjectDownloader(operations: [.getPartialObject])
        let (rawBytes, jpegBytes) = try blocking {
            (
                try await downloader.download(raw, session: session) { _ in },
                try await downloader.download(jpeg, session: session) { _ in }
            )
        }
        let processor = ShotProcessor(
            format: ResolvedFormat(product: .bayer, rawBitDepth: nil), keepJPEG: true, options: .init(),
            namer: .standard, camera: "bench", serial: "0", store: store, journal: journal)
        let clock = ContinuousClock()
        func shot() -> ShotProcessor.Shot {
            ShotProcessor.Shot(
                frame: 1, index: 0, bracket: nil, date: Date(), sequence: 1, raw: (raw, rawBytes),
                jpeg: (jpeg, jpegBytes), captureSeconds: 0, downloadSeconds: 0, triggered: clock.now)
        }
        func clearFolder() {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
                try? FileManager.default.removeItem(atPath: folder + "/" + name)
            }
        }
        /// Deletes every object but the reference shot, so the emulated card does not grow across runs.
        func clearCard() {
            try? blocking {
                for handle in try await session.getObjectHandles() where handle != raw.handle && handle != jpeg.handle {
                    let info = try await session.getObjectInfo(handle)
                    if info.objectFormat != .association { try await session.deleteObject(handle) }
                }
            }
        }
        // Check every operation once before timing anything.
        let files = try processor.process(shot())
        guard files.count == 2 else { throw BenchmarkError("encode wrote \(files.count) files, expected 2") }
        clearFolder()
        let plan = ShootPlan(format: .auto, count: pipelineFrames, keepJPEG: true, timing: timing)
        let summary = try blocking {
            try await CaptureRunner(session: session, plan: plan, store: store, journal: try Journal(folder: folder))
                .run()
        }
        guard summary.files.count == 2 * pipelineFrames else {
            throw BenchmarkError("the pipeline wrote \(summary.files.count) files, expected \(2 * pipelineFrames)")
        }
        clearFolder()
        clearCard()

        let megapixels = String(format: "%.0f MP", Double(width * height) / 1e6)
        let captureName = "capture alone, \(megapixels) RAW+JPEG"
        return [
            BenchmarkRow(group: name, name: captureName, bytes: bytes, reference: nil) {
                _ = try? blocking { try await driver.capture(session: session, expecting: 2, timing: timing) { _ in } }
                clearCard()
            },
            BenchmarkRow(
                group: name, name: "download alone (GetPartialObject, USB framing)", bytes: bytes,
                reference: captureName, note: { "\((rawBytes.count + jpegBytes.count) / 1000) kB" }
            ) {
                _ = try? blocking {
                    _ = try await downloader.download(raw, session: session) { _ in }
                    _ = try await downloader.download(jpeg, session: session) { _ in }
                }
            },
            BenchmarkRow(group: name, name: "encode alone (decode, DNG, JPEG)", bytes: bytes, reference: captureName) {
                _ = try? processor.process(shot())
                clearFolder()
            },
            BenchmarkRow(
                group: name, name: "pipeline shot-to-disk, \(pipelineFrames) frames", bytes: bytes * pipelineFrames,
                reference: captureName, note: { "wall ms ÷ \(pipelineFrames) = time per frame" }
            ) {
                _ = try? blocking {
                    try await CaptureRunner(
                        session: session, plan: plan, store: store, journal: try Journal(folder: folder)
                    ).run()
                }
                clearFolder()
                clearCard()
            },
        ]
    }

    /// Runs async work from the benchmark's synchronous rows, blocking this (main) thread.
    static func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let semaphore = DispatchSemaphore(value: 0)
        let box = ResultBox<T>()
        Task {
            do {
                box.result = .success(try await body())
            } catch {
                box.result = .failure(error)
            }
            semaphore.signal()
        }
        semaphore.wait()
        guard let result = box.result else { throw BenchmarkError("no result") }
        return try result.get()
    }
}

/// Carries a result out of a task to a blocked thread (the semaphore orders the accesses).
private final class ResultBox<T>: @unchecked Sendable {
    var result: Result<T, any Error>?
}
