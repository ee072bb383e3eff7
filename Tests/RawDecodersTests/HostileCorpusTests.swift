import Foundation
import RawDecoders
import TestSupport
import Testing

/// The crafted files of issue 17 §3 (``HostileCorpus``): committed to the fuzz seed corpus as generated, and each
/// refused by rawcap's reader with a typed error before it allocates what the file claims.
@Suite struct HostileCorpusTests {
    static let recording = ProcessInfo.processInfo.environment["RAWCAP_RECORD"] == "1"

    @Test(arguments: HostileCorpus.files.map(\.name))
    func theCommittedSeedIsTheGeneratedFile(name: String) throws {
        let bytes = try #require(HostileCorpus.files.first { $0.name == name }?.bytes)
        if Self.recording {
            try Data(bytes).write(to: HostileCorpus.folder.appendingPathComponent(name))
            return
        }
        #expect(try HostileCorpus.committed(name) == bytes, "re-record: RAWCAP_RECORD=1 swift test --filter HostileCorpusTests")
    }

    @Test func theSharedTileBombIsSmallAndRefusedBeforeAllocating() throws {
        let bytes = HostileCorpus.sharedTiles()
        #expect(bytes.count < 64_000)
        let error = try #require(throws: DecodeError.self) { try TIFFRawReader.decode(bytes[...]) }
        #expect(error.code == .corrupt && error.detail.contains("share bytes"), "\(error)")
        // It never reaches LibRaw either: the TIFF reader's refusal is not "unsupported".
        #expect(throws: DecodeError(.corrupt)) { try RawDecoder.decode(bytes[...]) }
    }

    @Test func overlappingStripsAreRefused() throws {
        let error = try #require(throws: DecodeError.self) {
            try TIFFRawReader.decode(HostileCorpus.overlappingStrips()[...])
        }
        #expect(error.code == .corrupt && error.detail.contains("share bytes"), "\(error)")
    }

    @Test func tilesTooSmallForTheirSamplesAreRefused() throws {
        let error = try #require(throws: DecodeError.self) { try TIFFRawReader.decode(HostileCorpus.tinyTiles()[...]) }
        #expect(error.code == .corrupt && error.detail.contains("too few"), "\(error)")
    }

    @Test(arguments: ["hostile-black-level-1e300.dng", "hostile-black-level-delta-v-1e300.dng"])
    func hugeBlackLevelsAreCorrupt(name: String) throws {
        let bytes = try #require(HostileCorpus.files.first { $0.name == name }?.bytes)
        #expect(throws: DecodeError(.corrupt)) { try TIFFRawReader.decode(bytes[...]) }
    }

    @Test func escapesAreKeptAsStoredByTheReader() throws {
        let frame = try #require(try TIFFRawReader.decode(HostileCorpus.escapes()[...]).frame)
        #expect(frame.metadata.make == "Evil\u{1B}[2J\u{1B}[H")
        #expect(frame.metadata.lensModel == "Lens\nWarning: forged line")
    }

    @Test func aDNGTheReaderDoesNotDecodeFallsBackToLibRaw() throws {
        let (bytes, samples) = HostileCorpus.sevenBitStrips()
        let refusal = try #require(throws: DecodeError.self) { try TIFFRawReader.decode(bytes[...]) }
        #expect(refusal.code == .unsupported && refusal.detail.contains("7-bit"), "\(refusal)")
        let decoded = try RawDecoder.decode(bytes[...])
        #expect(decoded.info.reader == .libRaw)
        #expect(decoded.info.container.description.hasPrefix("DNG 1.4"))
        #expect(decoded.info.warnings.first?.contains("LibRaw did") == true)
        #expect(decoded.frame?.samples == samples, "not the samples that went in")
    }

    @Test func aDNGNeitherDecoderReadsKeepsTheReadersError() throws {
        var file = TestRawFile()
        file.rawTags = [259: .short([65000])]  // a compression neither knows
        let error = try #require(throws: DecodeError.self) { try RawDecoder.decode(file.build()[...]) }
        #expect(error.code == .unsupported && error.detail.contains("LibRaw cannot decode it either"), "\(error)")
    }
}
