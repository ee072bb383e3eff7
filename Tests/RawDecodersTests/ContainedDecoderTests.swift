@testable import RawDecoders
import RawImage
import TestSupport
import Testing

/// LibRaw in a worker process (``ContainedDecoder``, the built `rawcap decode-worker`): the same results as in this
/// process, and a crash, a spin, a memory blow-up or a hang costs one request, after which a new worker serves the
/// next file (issue 17).
@Suite(.serialized) struct ContainedDecoderTests {
    static func decoder(_ limits: ContainedDecoder.Limits = .init()) throws -> ContainedDecoder {
        let rawcap = try #require(ChildProcess.builtProduct(named: "rawcap"), "the rawcap binary was not built")
        return ContainedDecoder(executable: rawcap, arguments: ["decode-worker"], limits: limits)
    }

    static func vendorFile() -> [UInt8] {
        var file = LibRawDecoderTests.oracleFile(bits: 14, littleEndian: false, placement: .subIFD)
        return file.build()
    }

    @Test func theWorkerDecodesExactlyWhatLibRawDoesHere() throws {
        let contained = try Self.decoder()
        defer { contained.stopWorker() }
        for bytes in [Self.vendorFile(), LibRawDecoderTests.oracleFile(bits: 12, littleEndian: true, placement: .ifd0).buildCopy()] {
            let here = try LibRawDecoder.decode(bytes[...])
            let there = try contained.decode(bytes[...])
            let (a, b) = (try #require(here.frame), try #require(there.frame))
            #expect(a.samples == b.samples)
            #expect(a.width == b.width && a.height == b.height && a.bitsPerSample == b.bitsPerSample)
            #expect(a.cfa == b.cfa && a.blackLevels == b.blackLevels && a.whiteLevel == b.whiteLevel)
            #expect(a.activeArea == b.activeArea && a.defaultCrop == b.defaultCrop)
            #expect(a.pixelAspectRatio == b.pixelAspectRatio)
            #expect(a.color == b.color)
            #expect(a.metadata == b.metadata)
            #expect(here.info.container == there.info.container && there.info.reader == .libRaw)
            #expect(here.info.previews == there.info.previews && here.info.warnings == there.info.warnings)
            #expect(here.storedBitsPerSample == there.storedBitsPerSample)
        }
        #expect(contained.workersStarted == 1, "one worker serves every file")
    }

    @Test func libRawsErrorsComeBackAsTheyAre() throws {
        let contained = try Self.decoder()
        defer { contained.stopWorker() }
        let notRaw: [UInt8] = Array("not a raw file at all, just text".utf8)
        let here = try #require(throws: DecodeError.self) { try LibRawDecoder.decode(notRaw[...]) }
        let there = try #require(throws: DecodeError.self) { try contained.decode(notRaw[...]) }
        #expect(here.code == there.code && here.detail == there.detail && here.libRawStatus == there.libRawStatus)
        #expect(try contained.decode(Self.vendorFile()[...]).frame != nil)
        #expect(contained.workersStarted == 1)
    }

    @Test func aCrashingFileCostsOnlyThatFile() throws {
        let contained = try Self.decoder()
        defer { contained.stopWorker() }
        let crash = try HostileCorpus.committed("hostile-libraw-crash.tif")
        #expect(RawDecoder.detectFormat(crash[...]) == .vendor)
        let error = try #require(throws: DecodeError.self) { try contained.decode(crash[...]) }
        #expect(error.code == .decoderFailed && error.detail.contains("LibRaw crashed"), "\(error)")
        #expect(try contained.decode(Self.vendorFile()[...]).frame != nil)
        #expect(contained.workersStarted == 2)
    }

    @Test func aSpinningDecodeMeetsItsCPULimit() throws {
        let contained = try Self.decoder(.init(cpuSeconds: 1, wallSeconds: 30))
        defer { contained.stopWorker() }
        let start = ContainedDecoder.now()
        let error = try #require(throws: DecodeError.self) { try contained.misbehave(.spin) }
        #expect(error.code == .decoderFailed && error.detail.contains("CPU time"), "\(error)")
        #expect(ContainedDecoder.now() - start < 25)
        #expect(try contained.decode(Self.vendorFile()[...]).frame != nil)
    }

    @Test func aHangingDecodeMeetsItsDeadline() throws {
        let contained = try Self.decoder(.init(cpuSeconds: 30, wallSeconds: 1.5))
        defer { contained.stopWorker() }
        let start = ContainedDecoder.now()
        let error = try #require(throws: DecodeError.self) { try contained.misbehave(.sleep) }
        #expect(error.code == .decoderFailed && error.detail.contains("did not finish within 1.5 s"), "\(error)")
        #expect(ContainedDecoder.now() - start < 10)
        #expect(try contained.decode(Self.vendorFile()[...]).frame != nil)
    }

    @Test func memoryIsBoundedByTheAddressSpaceLimit() throws {
        let contained = try Self.decoder(.init(addressSpaceBytes: 768 << 20))
        defer { contained.stopWorker() }
        let error = try #require(throws: DecodeError.self) { try contained.misbehave(.allocate) }
        // The worker's allocations fail below the limit, and it says how far it got.
        #expect(error.code == .tooLarge, "\(error)")
        let megabytes = Int(error.detail.split(separator: " ")[1]) ?? .max
        #expect(megabytes < 768, "\(error)")
        #expect(try contained.decode(Self.vendorFile()[...]).frame != nil)
    }

    @Test func aCrashInTheSelfTestIsReportedAsACrash() throws {
        let contained = try Self.decoder()
        defer { contained.stopWorker() }
        let error = try #require(throws: DecodeError.self) { try contained.misbehave(.crash) }
        #expect(error.detail.contains("signal 11, SIGSEGV"), "\(error)")
    }

    @Test func aWorkerThatCannotStartIsADecodeError() throws {
        let contained = ContainedDecoder(executable: "/nonexistent/rawcap", arguments: ["decode-worker"])
        #expect(throws: DecodeError(.decoderFailed)) { try contained.decode(Self.vendorFile()[...]) }
    }
}

extension TestRawFile {
    /// ``build()`` on a copy, for a file built inside an expression.
    func buildCopy() -> [UInt8] {
        var copy = self
        return copy.build()
    }
}
