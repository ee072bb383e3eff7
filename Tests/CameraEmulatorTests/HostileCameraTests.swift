import PTP
import RawDecoders
import Testing

@testable import CameraEmulator

/// The hostile personality (`--model hostile`, `hostile=` faults) on its own: what it claims and sends. The built
/// rawcap against it: InteropTests/HostileCameraTests.
@Suite struct HostileCameraEmulatorTests {
    @Test func everyBehaviourParsesAndRoundTrips() throws {
        for behaviour in HostileBehaviour.allCases {
            let fault = try EmulatorFault(parsing: "hostile=\(behaviour)")
            #expect(fault.kind == .hostile(behaviour))
            #expect(try EmulatorFault(parsing: fault.description) == fault)
        }
        #expect(throws: EmulatorError(.invalidFault)) { _ = try EmulatorFault(parsing: "hostile=nice") }
        #expect(throws: EmulatorError(.invalidFault)) { _ = try EmulatorFault(parsing: "hostile") }
    }

    @Test func onlyTheHostileModelAttacks() throws {
        let faults = [try EmulatorFault(parsing: "hostile=traversal")]
        #expect(throws: EmulatorError(.invalidConfiguration)) {
            _ = try EmulatedCamera(model: .generic, configuration: .init(faults: faults))
        }
        #expect(try CameraModel.named("hostile").personality == .hostile)
    }

    /// The camera arrives with a RAW+JPEG shot on its card, named to escape the host's folder.
    @Test func itsFilesAreNamedToEscape() async throws {
        let camera = try EmulatedCamera(model: .hostile, configuration: .init(sensorWidth: 64, sensorHeight: 48))
        let link = EmulatorLink.usb(camera)
        let session = PTPSession(transport: link.transport)
        try await session.openSession()
        var names: [String] = []
        for handle in try await session.getObjectHandles() {
            let info = try await session.getObjectInfo(handle)
            if info.objectFormat != .association { names.append(info.filename) }
        }
        #expect(names == ["../../../../../../tmp/rawcap-escape-1.TIF", "../../../../../../tmp/rawcap-escape-1.JPG"])
        await link.close()
        #expect(EmulatedCamera.hostileFilename(for: "RCAP0002.TIF") == "/tmp/rawcap-absolute-2.TIF")
        #expect(EmulatedCamera.hostileFilename(for: "RCAP0003.TIF").contains("\u{0}"))
        #expect(EmulatedCamera.hostileFilename(for: "RCAP0005.JPG").count == 246)
    }

    @Test func aHugeLengthIsClaimedInObjectInfo() async throws {
        let camera = try EmulatedCamera(
            model: .hostile,
            configuration: .init(
                sensorWidth: 64, sensorHeight: 48, faults: [try EmulatorFault(parsing: "hostile=huge-length")]))
        let link = EmulatorLink.usb(camera)
        let session = PTPSession(transport: link.transport)
        try await session.openSession()
        let handle = try #require(try await session.getObjectHandles().last)
        #expect(try await session.getObjectInfo(handle).objectCompressedSize == 0xFFFF_FFFE)
        await link.close()
    }

    /// Each crafted raw file is refused by rawcap's decoder with a typed error, quickly.
    @Test(arguments: [HostileBehaviour.cyclicTIFF, .deepTIFF, .subIFDLoop, .badOffsets])
    func craftedFilesAreRefusedByTheDecoder(behaviour: HostileBehaviour) throws {
        let bytes = try #require(HostileTIFF.file(for: behaviour))
        let start = ContinuousClock.now
        #expect(throws: DecodeError.self) { _ = try RawDecoder.decode(bytes[...]) }
        // A loop would not end at all; the bound only has to be finite and generous.
        #expect(ContinuousClock.now - start < .seconds(30))
    }

    @Test func theDeepFileReallyNests10000Levels() throws {
        let bytes = HostileTIFF.deep
        #expect(bytes.count == 8 + 10_000 * (2 + 14 * 12 + 4) + 512)
        // The last IFD's SubIFDs entry is replaced by PlanarConfiguration: the chain ends there.
        let lastIFD = 8 + 9_999 * (2 + 14 * 12 + 4)
        #expect(bytes[lastIFD + 2 + 11 * 12] == 0x1C && bytes[lastIFD + 2 + 11 * 12 + 1] == 0x01)  // tag 284
        let firstSubIFD = 2 + 11 * 12 + 8
        #expect(bytes[8 + firstSubIFD] == UInt8(truncatingIfNeeded: 8 + 2 + 14 * 12 + 4))
    }
}
