import CameraControl
import CameraEmulator
import Foundation
import Logging
import PTP
import TestSupport
import Testing

/// `quality` on Nikon bodies: CompressionSetting's numbers mean different things on different bodies
/// (``PTP/NikonImageQualityTable``), so its names follow the body's numbering, and plain numbers stand when
/// rawcap cannot tell it.
@Suite struct NikonSettingsTests {
    /// Warnings logged, for the "say so once" check.
    typealias Warnings = LogCollector

    /// Runs `body` with identified settings over an open session to `model`.
    static func withSettings<T: Sendable>(
        _ model: CameraModel, usbProductID: UInt16? = nil, warnings: Warnings = Warnings(),
        _ body: (CameraSettings, PTPSession) async throws -> T
    ) async throws -> T {
        let camera = try EmulatedCamera(model: model, configuration: .init(sensorWidth: 64, sensorHeight: 48))
        let link = EmulatorLink.usb(camera)
        let session = PTPSession(transport: link.transport, configuration: .init(timeout: .seconds(10)))
        do {
            try await session.openSession()
            let loaded = try await CameraSettings.load(session: session, logger: warnings.logger)
            let settings = try await loaded.identifyingNikonImageQuality(usbProductID: usbProductID)
            let result = try await body(settings, session)
            await link.close()
            return result
        } catch {
            await link.close()
            throw error
        }
    }

    static func quality(_ session: PTPSession) async throws -> PTPValue {
        try await session.getDevicePropDesc(.compressionSetting).currentValue
    }

    @Test func aD850NamesItsOwnNumbers() async throws {
        try await Self.withSettings(.nikon, usbProductID: 0x0441) { settings, session in
            let quality = try #require(try await settings.get(["quality"]).first)
            #expect(quality.value == "raw", "7 is the D850's NEF")
            #expect(
                quality.allowed == [
                    "jpeg-basic", "jpeg-basic*", "jpeg-normal", "jpeg-normal*", "jpeg", "jpeg-fine*", "raw",
                    "raw+jpeg-basic", "raw+jpeg-basic*", "raw+jpeg-normal", "raw+jpeg-normal*", "raw+jpeg",
                    "raw+jpeg-fine*",
                ])
            _ = try await settings.set(try PropertyAssignment.parse(["quality=raw+jpeg"]))
            #expect(try await Self.quality(session) == .uint8(12))
            _ = try await settings.set(try PropertyAssignment.parse(["imagequality=jpeg-fine-optimal"]))
            #expect(try await Self.quality(session) == .uint8(5))
            _ = try await settings.set(try PropertyAssignment.parse(["quality=nef"]))
            #expect(try await Self.quality(session) == .uint8(7))
            // TIFF (6) is the D850's, but this body does not offer it: refused before anything is sent.
            await #expect(throws: CameraControlError.self) {
                try await settings.set(try PropertyAssignment.parse(["quality=tiff"]))
            }
        }
    }

    /// Over PTP/IP or in process there is no USB product: the model names the body.
    @Test func theModelNamesTheBodyWithoutAUSBProduct() async throws {
        let value = try await Self.withSettings(.nikonWithoutObjectEvents) { settings, _ in
            try await settings.get(["quality"]).first?.value
        }
        #expect(value == "raw")
    }

    @Test func anOlderBodyNamesTheClassicNumbers() async throws {
        var model = CameraModel.nikon
        model.model = "D810"
        model.qualityValues =
            (0...2).map { CameraModel.QualityValue(value: .uint8($0), quality: .jpeg) }
            + [CameraModel.QualityValue(value: .uint8(4), quality: .raw)]
            + (5...7).map { CameraModel.QualityValue(value: .uint8($0), quality: .rawPlusJPEG) }
        try await Self.withSettings(model) { settings, session in
            let quality = try #require(try await settings.get(["quality"]).first)
            #expect(quality.value == "raw")
            #expect(
                quality.allowed == [
                    "jpeg-basic", "jpeg-normal", "jpeg", "raw", "raw+jpeg-basic", "raw+jpeg-normal", "raw+jpeg",
                ])
            _ = try await settings.set(try PropertyAssignment.parse(["quality=raw+jpeg"]))
            #expect(try await Self.quality(session) == .uint8(7))
        }
    }

    /// Values up to 4 fit the classic and the D40 numbering: plain numbers, and one warning saying why.
    @Test func aBodyOfUnknownNumberingShowsNumbersAndSaysWhyOnce() async throws {
        var model = CameraModel.nikon
        model.model = "D60"
        model.qualityValues =
            (0...2).map { CameraModel.QualityValue(value: .uint8($0), quality: .jpeg) }
            + [
                CameraModel.QualityValue(value: .uint8(3), quality: .raw),
                CameraModel.QualityValue(value: .uint8(4), quality: .rawPlusJPEG),
            ]
        let warnings = Warnings()
        try await Self.withSettings(model, warnings: warnings) { settings, session in
            let quality = try #require(try await settings.get(["quality"]).first)
            #expect(quality.value == "3")
            #expect(quality.allowed == ["0", "1", "2", "3", "4"])
            await #expect(throws: CameraControlError.self) {
                try await settings.set(try PropertyAssignment.parse(["quality=raw"]))
            }
            _ = try await settings.set(try PropertyAssignment.parse(["quality=4"]))
            #expect(try await Self.quality(session) == .uint8(4))
        }
        #expect(warnings.messages.count == 1, "\(warnings.messages)")
        #expect(warnings.messages.first?.contains("D60") == true, "\(warnings.messages)")
    }

    /// Without identification (a caller that never asks), a Nikon's quality is never read with the generic names.
    @Test func anUnidentifiedNikonShowsNumbers() async throws {
        let camera = try EmulatedCamera(model: .nikon, configuration: .init(sensorWidth: 64, sensorHeight: 48))
        let link = EmulatorLink.usb(camera)
        let session = PTPSession(transport: link.transport, configuration: .init(timeout: .seconds(10)))
        try await session.openSession()
        let settings = try await CameraSettings.load(session: session)
        #expect(try await settings.get(["quality"]).first?.value == "7")
        await link.close()
    }
}
