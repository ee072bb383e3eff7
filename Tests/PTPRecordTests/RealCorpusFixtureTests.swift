import Foundation
import PTP
import PTPRecord
import TestSupport
import Testing

/// The recordings under `Fixtures/traces/real/`: imported from real cameras' libgphoto2 debug logs with `rawcap
/// replay import` (their sources are not in the repository: `README.md` there names each, with the recording's
/// SHA-256), and converted here from the byte transcriptions in `Fixtures/ptp-real/` (each record a whole USB data
/// container: rendered as the dump of a port read and imported, so the request comes from the container and OK
/// stands in for the response, marked as not in the source).
@Suite struct RealCorpusFixtureTests {
    struct Conversion: Sendable, CustomStringConvertible {
        var hexFiles: [String]
        var pcapng: String
        var camera: String
        var description: String { pcapng }
        var path: String { Self.fixtures.appendingPathComponent(pcapng).path }
        static var fixtures: URL { ExternalTool.packageRoot.appendingPathComponent("Fixtures") }
    }

    static let conversions = [
        Conversion(
            hexFiles: ["ptp-real/canon-eos-60d_deviceinfo.hex", "ptp-real/canon-eos-60d_devicepropdesc.hex"],
            pcapng: "traces/real/canon-eos-60d_ptp-real-deviceinfo-propdesc.pcapng", camera: "Canon EOS 60D"),
        Conversion(
            hexFiles: ["ptp-real/canon-powershot-g5x_deviceinfo.hex"],
            pcapng: "traces/real/canon-powershot-g5x_ptp-real-deviceinfo.pcapng", camera: "Canon PowerShot G5 X"),
        Conversion(
            hexFiles: ["ptp-real/fujifilm-finepix-s4200_deviceinfo.hex"],
            pcapng: "traces/real/fujifilm-finepix-s4200_ptp-real-deviceinfo.pcapng", camera: "Fujifilm FinePix S4200"),
    ]

    /// The recording of `conversion`'s transcriptions, as bytes.
    static func convert(_ conversion: Conversion) throws -> [UInt8] {
        var log = GPhoto2LogWriter(format: .new)
        for file in conversion.hexFiles {
            for record in try HexFixture(file).records { log.read(record.bytes, asked: 1024) }
        }
        let result = GPhoto2LogImporter.importLog(log.text)
        #expect(result.damagedLineCount == 0)
        return result.conversation.pcapngEncoded(
            application: "rawcap 0.1.0 replay import",
            comments: conversion.hexFiles.map {
                "source: Fixtures/\($0) (bytes transcribed from a libgphoto2 debug log)"
            })
    }

    @Test(
        .enabled(if: ProcessInfo.processInfo.environment["RAWCAP_RECORD"] == "1", "set RAWCAP_RECORD=1 to rewrite"),
        arguments: conversions)
    func rewriteTheRecording(conversion: Conversion) throws {
        try FileManager.default.createDirectory(
            at: URL(fileURLWithPath: conversion.path).deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(try Self.convert(conversion)).write(to: URL(fileURLWithPath: conversion.path))
    }

    @Test(arguments: conversions) func theRecordingIsTheConvertedTranscription(conversion: Conversion) throws {
        let committed = try Data(contentsOf: URL(fileURLWithPath: conversion.path))
        #expect(
            [UInt8](committed) == (try Self.convert(conversion)), "rerun with RAWCAP_RECORD=1 if the converter changed")
        let conversation = try PTPConversation.load(path: conversion.path)
        #expect(conversation.deviceInfo?.model == conversion.camera.replacingOccurrences(of: "Fujifilm ", with: ""))
        // Only the responses are missing from the transcriptions, and the marks say so.
        #expect(conversation.transactions.allSatisfy { $0.cut?.onlyTheResponseIsMissing == true })
    }
}
