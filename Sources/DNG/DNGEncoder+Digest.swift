import RawImage

extension DNGEncoder {
    /// NewRawImageDigest and RawDataUniqueID of one raw image.
    struct RawDigests: Sendable, Hashable {
        /// The DNG SDK's tiled MD5 of the samples (``RawImageDigest``).
        let newRawImageDigest: [UInt8]
        /// MD5 of the raw digest and what identifies the capture (``UniqueIDSource``).
        let rawDataUniqueID: [UInt8]

        /// Sixteen zero bytes each: the placeholders a plan carries while the digest is computed alongside the
        /// file write (``DNGWriter``); the writer overwrites them in place, so the file ends up byte-identical.
        static let placeholder = RawDigests(
            newRawImageDigest: [UInt8](repeating: 0, count: 16), rawDataUniqueID: [UInt8](repeating: 0, count: 16))
    }

    /// How a plan gets its digests.
    enum DigestHandling {
        /// No NewRawImageDigest or RawDataUniqueID (``DNGOptions/writesRawDigest`` is false).
        case omitted
        /// Computed while planning: the public, pure path.
        case computed
        /// Zero placeholders; the caller computes ``PendingDigest`` itself and patches the file.
        case placeholder

        func values(_ pending: @autoclosure () -> PendingDigest) -> RawDigests? {
            switch self {
            case .omitted: nil
            case .computed: pending().compute()
            case .placeholder: .placeholder
            }
        }
    }

    /// Everything needed to compute a raw image's digests later, on another thread.
    struct PendingDigest: Sendable {
        let samples: [UInt16]
        let width: Int
        let height: Int
        let planes: Int
        let bytesPerSample: Int
        let threadCount: Int
        let identity: UniqueIDSource

        func compute() -> RawDigests {
            let digest = samples.withUnsafeBufferPointer {
                RawImageDigest.compute(
                    samples: $0, width: width, height: height, planes: planes, bytesPerSample: bytesPerSample,
                    threadCount: threadCount)
            }
            return RawDigests(newRawImageDigest: digest, rawDataUniqueID: identity.uniqueID(rawDigest: digest))
        }
    }

    func pendingDigest(for frame: RawFrame) -> PendingDigest {
        var identity = UniqueIDSource(metadata: frame.metadata, crop: frame.defaultCrop)
        identity.activeArea = frame.activeArea
        return PendingDigest(
            samples: frame.samples, width: frame.width, height: frame.height, planes: 1,
            bytesPerSample: frame.bitsPerSample <= 8 ? 1 : 2, threadCount: options.threadCount, identity: identity)
    }

    func pendingDigest(for image: LinearImage) -> PendingDigest {
        // The SDK hashes 8-bit data, and 16-bit data whose LinearizationTable has at most 256 entries, as bytes.
        let byteSized = image.bitsPerSample <= 8 || (image.linearizationTable.map { $0.count <= 256 } ?? false)
        return PendingDigest(
            samples: image.samples, width: image.width, height: image.height, planes: 3,
            bytesPerSample: byteSized ? 1 : 2, threadCount: options.threadCount,
            identity: UniqueIDSource(metadata: image.metadata, crop: image.defaultCrop))
    }
}
