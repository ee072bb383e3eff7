import CLibTIFF

#if canImport(Glibc)
    import Glibc
#endif

/// Teaches libtiff the DNG tags its field table lacks, so that `TIFFSetField` accepts them.
///
/// libtiff 4.5.0 knows only the DNG 1.0/1.1 tags (dng-facts.md fact 4), and 4.5.1 dropped even CFARepeatPatternDim
/// and CFAPattern by accident (fact 6). libtiff forgets fields merged with `TIFFMergeFieldInfo` whenever it starts a
/// new directory (`TIFFDefaultDirectory` resets the field table), so the registration runs from a tag extender
/// (`TIFFSetTagExtender`), which libtiff calls for every directory. Registering a tag libtiff already knows is
/// harmless: `_TIFFMergeFields` keeps the existing definition (tif_dirinfo.c).
enum TIFFFieldRegistry {
    /// The tags registered, with the counts libtiff should enforce: `nil` for a variable count.
    static let registeredTags: [DNGTag] = [
        .cfaRepeatPatternDim, .cfaPattern, .profileName, .profileToneCurve, .forwardMatrix1, .forwardMatrix2,
        .previewColorSpace, .defaultBlackRender, .newRawImageDigest,
    ]

    /// Installs the extender once per process; every call after the first does nothing.
    static func install() { _ = installation }

    private static let installation: Void = {
        previousExtender = TIFFSetTagExtender { tif in
            TIFFFieldRegistry.register(in: tif)
            TIFFFieldRegistry.previousExtender?(tif)
        }
    }()

    /// The extender that was installed before ours (libtiff's convention is to chain them). Written once, inside
    /// `installation`'s one-time initialiser, before any TIFF is opened through rawcap.
    nonisolated(unsafe) private static var previousExtender: TIFFExtendProc?

    /// The field descriptions, allocated once and kept for the process's lifetime: libtiff keeps pointers to them
    /// (including the names) in every TIFF that merges them.
    nonisolated(unsafe) private static let fieldInfo: UnsafeMutableBufferPointer<TIFFFieldInfo> = {
        let buffer = UnsafeMutableBufferPointer<TIFFFieldInfo>.allocate(capacity: registeredTags.count)
        for (index, tag) in registeredTags.enumerated() {
            let count: Int16 = tag.count.map { Int16(clamping: $0) } ?? Int16(TIFF_VARIABLE)
            let isString = tag.type == .ascii
            buffer[index] = TIFFFieldInfo(
                field_tag: UInt32(tag.id),
                field_readcount: count,
                field_writecount: count,
                field_type: TIFFDataType(UInt32(tag.type.rawValue)),
                field_bit: UInt16(FIELD_CUSTOM),
                field_oktochange: 1,
                // Variable-length arrays pass their count (uint16); strings and fixed-size arrays do not.
                field_passcount: tag.count == nil && !isString ? 1 : 0,
                field_name: strdup(tag.name))
        }
        return buffer
    }()

    /// The name RawDecoders' reader gives libtiff for the files it opens (`RawDecoders.TIFFFieldRegistry.fileName`;
    /// DNG cannot import RawDecoders). The extender is process-wide and libtiff keeps the first definition merged
    /// for a tag, so when this extender runs before the reader's it would impose the writer's fixed counts on the
    /// reader's files; those files get the reader's own definitions only.
    static let readerFileName = "rawcap-raw-reader"

    private static func register(in tif: OpaquePointer?) {
        guard let tif, let base = fieldInfo.baseAddress else { return }
        if let name = TIFFFileName(tif), String(cString: name) == readerFileName { return }
        _ = TIFFMergeFieldInfo(tif, base, UInt32(fieldInfo.count))
    }
}
