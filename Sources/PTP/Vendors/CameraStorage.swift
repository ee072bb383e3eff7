/// How a camera lists its stores: the operation that returns the storage IDs and the one that describes a store.
///
/// Standard PTP has GetStorageIDs (0x1004) and GetStorageInfo (0x1005). Canon EOS bodies also have their own pair,
/// EOS GetStorageIDs (0x9101) and EOS GetStorageInfo (0x9102), and a body in EOS remote mode may refuse the
/// standard pair: a real EOS R's client listed its stores with 0x9101/0x9102. libgphoto2 reads the EOS pair while
/// it prepares capture (`config.c` `camera_prepare_canon_eos_capture`, `ptp.c` `ptp_canon_eos_getstorageids`: the
/// answer is a PTP array of UINT32 like 0x1004's; `ptp_canon_eos_getstorageinfo`: one parameter, the storage ID).
/// The layout of 0x9102's data is not decoded by libgphoto2; the one dump it keeps (`ptp.h`, above
/// `PTP_OC_CANON_EOS_GetStorageInfo`: 0x28 bytes, StorageType 4, FilesystemType 3, "CF", "A:") is a standard
/// StorageInfo dataset, which is how rawcap reads it.
public struct StorageOperations: Hashable, Sendable, CustomStringConvertible {
    /// The operation that returns the storage IDs (a PTP array of UINT32).
    public var getStorageIDs: OperationCode
    /// The operation that returns a store's StorageInfo (one parameter: its ID).
    public var getStorageInfo: OperationCode

    /// Creates a pair.
    public init(getStorageIDs: OperationCode, getStorageInfo: OperationCode) {
        self.getStorageIDs = getStorageIDs
        self.getStorageInfo = getStorageInfo
    }

    /// GetStorageIDs (0x1004) and GetStorageInfo (0x1005).
    public static let standard = StorageOperations(getStorageIDs: .getStorageIDs, getStorageInfo: .getStorageInfo)
    /// Canon EOS GetStorageIDs (0x9101) and GetStorageInfo (0x9102).
    public static let canonEOS = StorageOperations(
        getStorageIDs: OperationCode.Canon.eosGetStorageIDs, getStorageInfo: OperationCode.Canon.eosGetStorageInfo)

    /// `0x9101/0x9102`.
    public var description: String {
        "0x" + hex4(getStorageIDs.rawValue) + "/0x" + hex4(getStorageInfo.rawValue)
    }

    private func hex4(_ value: UInt16) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

extension CameraIdentity {
    /// The pairs of storage operations to try, best first: a Canon EOS body that lists both EOS storage operations
    /// is asked with them first (its remote mode may refuse the standard pair), then with the standard pair when it
    /// lists that; any other camera with the standard pair when it lists it. Empty when the camera lists neither.
    public var storageOperations: [StorageOperations] {
        var pairs: [StorageOperations] = []
        if family == .canonEOS, deviceInfo.supports(StorageOperations.canonEOS.getStorageIDs),
            deviceInfo.supports(StorageOperations.canonEOS.getStorageInfo)
        {
            pairs.append(.canonEOS)
        }
        if deviceInfo.supports(.getStorageIDs) { pairs.append(.standard) }
        return pairs
    }
}

/// A camera's stores as ``PTPSession/listStorages()`` found them.
public struct StorageListing: Sendable {
    /// One store: its ID and its StorageInfo, or the camera's refusal to describe it.
    public struct Store: Sendable {
        /// The storage ID.
        public var id: StorageID
        /// Its StorageInfo, or the error the camera answered.
        public var info: Result<StorageInfo, PTPError>
    }

    /// The pair of operations that listed the stores; `nil` when none did.
    public var operations: StorageOperations?
    /// The stores, in the camera's order.
    public var stores: [Store]
    /// The pairs the camera refused before one worked (or all of them), with its answer: for the report.
    public var refusals: [(operations: StorageOperations, error: PTPError)]
}

extension PTPSession {
    /// The camera's stores and their StorageInfo, through the first pair of ``CameraIdentity/storageOperations``
    /// the camera accepts (a refused pair is noted and the next one tried). A store the camera will not describe is
    /// kept with its refusal; a failing link throws.
    public func listStorages() async throws -> StorageListing {
        let identity = try await cameraIdentity()
        var refusals: [(operations: StorageOperations, error: PTPError)] = []
        for pair in identity.storageOperations {
            let ids: [StorageID]
            do {
                ids = try StorageIDArray(
                    ptpEncoded: try await execute(
                        pair.getStorageIDs, parameters: [], dataOut: nil, expectDataIn: true
                    ).data ?? [], quirks: configuration.quirks
                ).storageIDs
            } catch let error as PTPError where error.code == .deviceResponse {
                refusals.append((pair, error))
                continue
            }
            var stores: [StorageListing.Store] = []
            for id in ids {
                do {
                    let data =
                        try await execute(
                            pair.getStorageInfo, parameters: [id.rawValue], dataOut: nil, expectDataIn: true
                        ).data ?? []
                    stores.append(.init(id: id, info: .success(try StorageInfo(ptpEncoded: data, quirks: configuration.quirks))))
                } catch let error as PTPError where error.code == .deviceResponse {
                    stores.append(.init(id: id, info: .failure(error)))
                }
            }
            return StorageListing(operations: pair, stores: stores, refusals: refusals)
        }
        return StorageListing(operations: nil, stores: [], refusals: refusals)
    }
}
