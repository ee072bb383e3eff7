import PTP
import Testing
import WireFormat

/// ``PTPSession/listStorages()``: a Canon EOS body in remote mode refuses the standard GetStorageIDs and answers
/// the EOS pair (0x9101/0x9102) with the bytes libgphoto2 recorded; other cameras use the standard pair.
@Suite struct CameraStorageTests {
    /// A camera with a DeviceInfo, an open session, and storage answers chosen per operation.
    actor StorageCamera: PTPResponder {
        let info: DeviceInfo
        var replies: [OperationCode: PTPResponderReply]
        private(set) var requests: [PTPRequest] = []

        init(_ info: DeviceInfo, _ replies: [OperationCode: PTPResponderReply]) {
            self.info = info
            self.replies = replies
        }

        func respond(to request: PTPRequest, dataOut: [UInt8]?) async -> PTPResponderReply {
            requests.append(request)
            switch request.code {
            case .getDeviceInfo: return .dataset(info)
            case .openSession: return PTPResponderReply()
            default: return replies[request.code] ?? PTPResponderReply(.operationNotSupported)
            }
        }
    }

    /// The real EOS R's DeviceInfo (Rocc's PTP/IP flow, `Fixtures/ptp-real/canon-eos-r_ptpip-connect.hex`).
    static func eosR() throws -> DeviceInfo {
        let packets = try Fixture("ptp-real/canon-eos-r_ptpip-connect.hex").records.map {
            try PTPIPPacket(ptpipEncoded: $0.bytes)
        }
        for case .endData(2, let payload) in packets { return try DeviceInfo(ptpEncoded: payload) }
        throw FixtureError(message: "no DeviceInfo in the EOS R flow")
    }

    /// libgphoto2's notes of an EOS body's 0x9101 and 0x9102 answers (`Fixtures/ptp-real/canon-eos_eos-storage.hex`).
    static func eosStorageAnswers() throws -> (ids: [UInt8], info: [UInt8]) {
        let records = try Fixture("ptp-real/canon-eos_eos-storage.hex").records
        #expect(records.count == 2)
        return (records[0].bytes, Array(records[1].bytes.dropFirst(12)))
    }

    static func session(_ camera: StorageCamera) async throws -> (PTPSession, InMemoryBulkPipe, Task<Void, Never>) {
        let pipe = InMemoryBulkPipe()
        let device = USBDeviceSide(pipe: pipe, responder: camera)
        let running = Task { await device.run() }
        let session = PTPSession(transport: PTPUSBTransport(pipe: pipe), configuration: .init(timeout: .seconds(2)))
        try await session.openSession()
        return (session, pipe, running)
    }

    @Test func theEOSStorageAnswersDecodeAsAStorageIDArrayAndAStorageInfo() throws {
        let (ids, info) = try Self.eosStorageAnswers()
        #expect(try StorageIDArray(ptpEncoded: ids).storageIDs == [StorageID(rawValue: 0)])
        #expect(info.count == 0x28)
        let storage = try StorageInfo(ptpEncoded: info)
        #expect(storage.storageType == StorageType(rawValue: 4) && storage.filesystemType == FilesystemType(rawValue: 3))
        #expect(storage.freeSpaceInImages == 0xFFFF_FFFF)
        #expect(storage.storageDescription == "CF" && storage.volumeLabel == "A:")
    }

    @Test func aCanonEOSListsItsStoresWithTheEOSOperations() async throws {
        let info = try Self.eosR()
        #expect(info.supports(OperationCode.Canon.eosGetStorageIDs) && info.supports(.getStorageIDs))
        let (ids, storage) = try Self.eosStorageAnswers()
        // In remote mode the body refuses the standard pair (what rawcap `info` met on a real EOS R).
        let camera = StorageCamera(
            info,
            [
                .getStorageIDs: PTPResponderReply(.operationNotSupported),
                OperationCode.Canon.eosGetStorageIDs: .data(ids),
                OperationCode.Canon.eosGetStorageInfo: .data(storage),
            ])
        let (session, pipe, running) = try await Self.session(camera)
        defer { running.cancel() }
        let identity = try await session.cameraIdentity()
        #expect(identity.storageOperations == [.canonEOS, .standard])
        let listing = try await session.listStorages()
        #expect(listing.operations == .canonEOS)
        #expect(listing.refusals.isEmpty)
        #expect(listing.stores.map(\.id) == [StorageID(rawValue: 0)])
        #expect(try listing.stores.first?.info.get().storageDescription == "CF")
        let asked = await camera.requests.map(\.code)
        #expect(!asked.contains(.getStorageIDs), "the EOS pair answered: the standard one is not asked")
        #expect(await camera.requests.last?.parameters == [0])
        await pipe.disconnect()
    }

    @Test func aCanonEOSThatRefusesTheEOSPairIsAskedTheStandardOne() async throws {
        let camera = StorageCamera(
            try Self.eosR(),
            [
                OperationCode.Canon.eosGetStorageIDs: PTPResponderReply(.operationNotSupported),
                .getStorageIDs: .dataset(StorageIDArray([StorageID(rawValue: 0x0001_0001)])),
                .getStorageInfo: PTPResponderReply(.storeNotAvailable),
            ])
        let (session, pipe, running) = try await Self.session(camera)
        defer { running.cancel() }
        let listing = try await session.listStorages()
        #expect(listing.operations == .standard)
        #expect(listing.refusals.map(\.operations) == [.canonEOS])
        #expect(listing.stores.map(\.id) == [StorageID(rawValue: 0x0001_0001)])
        if case .failure(let error) = listing.stores.first?.info {
            #expect(error.response == .storeNotAvailable)
        } else {
            Issue.record("the refused StorageInfo is kept as a refusal")
        }
        await pipe.disconnect()
    }

    @Test func otherCamerasUseTheStandardPairEvenWhen0x9101IsListed() async throws {
        // 0x9101 is an MTP and an Olympus code too: only a Canon EOS body is asked it as EOS GetStorageIDs.
        let info = DeviceInfo(
            standardVersion: 100, vendorExtensionID: .microsoft, vendorExtensionVersion: 100,
            operationsSupported: [.getDeviceInfo, .openSession, .getStorageIDs, .getStorageInfo, OperationCode(0x9101)],
            manufacturer: "OLYMPUS", model: "E-M1", deviceVersion: "1", serialNumber: "1")
        let camera = StorageCamera(info, [.getStorageIDs: .dataset(StorageIDArray([]))])
        let (session, pipe, running) = try await Self.session(camera)
        defer { running.cancel() }
        #expect(try await session.cameraIdentity().storageOperations == [.standard])
        let listing = try await session.listStorages()
        #expect(listing.operations == .standard && listing.stores.isEmpty)
        await pipe.disconnect()
    }
}
