import CameraEmulator
import PTP
import Testing

/// The camera is stricter than real ones: every protocol rule a host can break answers the code the spec names,
/// and the transcript shows it.
@Suite struct SessionRuleTests {
    @Test(arguments: Reach.allCases)
    func operationsOutsideASessionAnswerSessionNotOpen(reach: Reach) async throws {
        let camera = try smallCamera()
        let link = try await reach.connect(camera)
        #expect(try await transact(link, .getStorageIDs, tid: 0).code == .sessionNotOpen)
        #expect(try await transact(link, .initiateCapture, tid: 0, [0, 0]).code == .sessionNotOpen)
        #expect(try await transact(link, .getDeviceInfo, tid: 0).code == .ok)
        let transcript = await camera.transcript
        #expect(transcript.map(\.code) == [.getStorageIDs, .initiateCapture, .getDeviceInfo])
        #expect(transcript.map(\.response) == [.sessionNotOpen, .sessionNotOpen, .ok])
        #expect(await camera.isCapturing == false)
        await link.close()
    }

    @Test(arguments: Reach.allCases)
    func aWrongTransactionIDAnswersInvalidTransactionIDAndKeepsTheExpectedOne(reach: Reach) async throws {
        let camera = try smallCamera()
        let link = try await reach.connect(camera)
        #expect(try await transact(link, .openSession, tid: 0, [1]).code == .ok)
        #expect(try await transact(link, .getStorageIDs, tid: 1).code == .ok)
        #expect(try await transact(link, .getStorageIDs, tid: 5).code == .invalidTransactionID)
        #expect(try await transact(link, .getStorageIDs, tid: 2).code == .ok)
        // Outside a session, transaction ID 0 only.
        #expect(try await transact(link, .closeSession, tid: 3).code == .ok)
        #expect(try await transact(link, .getDeviceInfo, tid: 4).code == .invalidTransactionID)
        #expect(await camera.transcript.map(\.response) == [.ok, .ok, .invalidTransactionID, .ok, .ok, .invalidTransactionID])
        await link.close()
    }

    @Test(arguments: Reach.allCases)
    func aSecondOpenSessionAnswersSessionAlreadyOpened(reach: Reach) async throws {
        let camera = try smallCamera()
        let link = try await reach.connect(camera)
        #expect(try await transact(link, .openSession, tid: 0, [7]).code == .ok)
        let again = try await transact(link, .openSession, tid: 0, [8])
        #expect(again.code == .sessionAlreadyOpened && again.parameters == [7])
        #expect(await camera.openSessionID == 7)
        // libgphoto2 goes on with transaction ID 1 after SessionAlreadyOpened.
        #expect(try await transact(link, .getStorageIDs, tid: 1).code == .ok)
        #expect(try await transact(link, .openSession, tid: 0, [0]).code == .invalidParameter)
        await link.close()
        // The closed link ends the session.
        #expect(await camera.openSessionID == nil)
    }

    @Test func openSessionWithIDZeroIsInvalid() async throws {
        let link = EmulatorLink.usb(try smallCamera())
        #expect(try await transact(link, .openSession, tid: 0, [0]).code == .invalidParameter)
        await link.close()
    }

    @Test(arguments: Reach.allCases)
    func unknownHandlesStoresAndPropertiesAnswerTheirCodes(reach: Reach) async throws {
        let camera = try smallCamera()
        let link = try await reach.connect(camera)
        let session = PTPSession(transport: link.transport)
        try await session.openSession()
        await #expect(throws: PTPError(response: .invalidObjectHandle, operation: .getObjectInfo)) {
            _ = try await session.getObjectInfo(ObjectHandle(rawValue: 0xBEEF))
        }
        await #expect(throws: PTPError(response: .invalidObjectHandle, operation: .getObject)) {
            _ = try await download(session, ObjectHandle(rawValue: 0xBEEF))
        }
        await #expect(throws: PTPError(response: .invalidObjectHandle, operation: .deleteObject)) {
            try await session.deleteObject(ObjectHandle(rawValue: 0xBEEF))
        }
        await #expect(throws: PTPError(response: .invalidStorageID, operation: .getStorageInfo)) {
            _ = try await session.getStorageInfo(StorageID(rawValue: 0x0003_0001))
        }
        await #expect(throws: PTPError(response: .invalidStorageID, operation: .getObjectHandles)) {
            _ = try await session.getObjectHandles(storage: StorageID(rawValue: 0x0003_0001))
        }
        await #expect(throws: PTPError(response: .invalidStorageID, operation: .initiateCapture)) {
            try await session.initiateCapture(storage: StorageID(rawValue: 0x0003_0001))
        }
        await #expect(throws: PTPError(response: .devicePropNotSupported, operation: .getDevicePropDesc)) {
            _ = try await session.getDevicePropDesc(.sharpness)
        }
        await #expect(throws: PTPError(response: .invalidObjectFormatCode, operation: .initiateCapture)) {
            try await session.initiateCapture(format: .png)
        }
        #expect(
            await camera.transcript.map(\.response).suffix(8) == [
                .invalidObjectHandle, .invalidObjectHandle, .invalidObjectHandle, .invalidStorageID, .invalidStorageID,
                .invalidStorageID, .devicePropNotSupported, .invalidObjectFormatCode,
            ])
        await link.close()
    }

    @Test(arguments: Reach.allCases)
    func propertyValuesAreCheckedAgainstTheirDescriptions(reach: Reach) async throws {
        let camera = try smallCamera()
        let link = try await reach.connect(camera)
        let session = PTPSession(transport: link.transport)
        try await session.openSession()
        // ISO 150 is not in the enumeration.
        await #expect(throws: PTPError(response: .invalidDevicePropValue, operation: .setDevicePropValue)) {
            try await session.setDevicePropValue(.exposureIndex, .uint16(150))
        }
        // A 32-bit value for a 16-bit property is malformed.
        await #expect(throws: PTPError(response: .invalidDevicePropFormat, operation: .setDevicePropValue)) {
            try await session.setDevicePropValue(.exposureIndex, .uint32(400))
        }
        // Battery level is read-only.
        await #expect(throws: PTPError(response: .accessDenied, operation: .setDevicePropValue)) {
            try await session.setDevicePropValue(.batteryLevel, .uint8(50))
        }
        // The date must be a PTP date-time.
        await #expect(throws: PTPError(response: .invalidDevicePropValue, operation: .setDevicePropValue)) {
            try await session.setDevicePropValue(.dateTime, .string("yesterday"))
        }
        #expect(try await session.getDevicePropValue(.exposureIndex, type: .uint16) == .uint16(100))
        await link.close()
    }

    @Test func aMissingOrUnexpectedDataPhaseAnswersInvalidDataset() async throws {
        // Only PTP/IP tells the device whether a data phase follows (DataPhaseInfo); over USB the device decides.
        let camera = try smallCamera()
        let link = try await EmulatorLink.ptpip(camera)
        #expect(try await transact(link, .openSession, tid: 0, [1]).code == .ok)
        #expect(
            try await transact(link, .setDevicePropValue, tid: 1, [UInt32(DevicePropertyCode.exposureIndex.rawValue)])
                .code == .invalidDataset)
        #expect(try await transact(link, .getStorageIDs, tid: 2, dataOut: [1, 2, 3]).code == .invalidDataset)
        #expect(await camera.transcript.last?.dataOutByteCount == 3)
        await link.close()
    }

    @Test func extraParametersAnswerParameterNotSupported() async throws {
        let link = EmulatorLink.usb(try smallCamera())
        #expect(try await transact(link, .openSession, tid: 0, [1]).code == .ok)
        #expect(try await transact(link, .getStorageIDs, tid: 1, [0x0001_0001]).code == .parameterNotSupported)
        // Zero parameters beyond the operation's are harmless (hosts pad).
        #expect(try await transact(link, .getStorageIDs, tid: 2, [0, 0]).code == .ok)
        await link.close()
    }

    @Test func unsupportedOperationSurfacesTheResponseCode() async throws {
        // STYLE.md §3's example: a camera whose DeviceInfo lists only GetDeviceInfo (and OpenSession).
        let camera = EmulatedCamera(
            deviceInfo: DeviceInfo(operationsSupported: [.getDeviceInfo, .openSession], manufacturer: "rawcap"))
        let link = EmulatorLink.usb(camera)
        let session = PTPSession(transport: link.transport)
        try await session.openSession()
        await #expect(throws: PTPError(response: .operationNotSupported, operation: .initiateCapture)) {
            try await session.initiateCapture()
        }
        #expect(await camera.transcript.map(\.code) == [.openSession, .initiateCapture])
        await link.close()
    }
}
