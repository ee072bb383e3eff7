import CLibTIFF

#if canImport(Glibc)
    import Glibc
#endif

/// Teaches libtiff the tags its field table lacks (the catalog's `registered: true` rows), for the DNG writer and the
/// raw reader alike, so that `TIFFSetField` accepts them and `TIFFReadDirectory` reads them with their types instead
/// of as anonymous fields.
///
/// libtiff 4.5.0 knows only the DNG 1.0/1.1 tags (dng-facts.md fact 4), 4.5.1 dropped even CFARepeatPatternDim and
/// CFAPattern by accident (fact 6), and TIFF/EP files (ISO 12234-2) put EXIF fields such as ExposureTime directly in
/// IFD 0, where libtiff's default table does not have them either. libtiff forgets fields merged with
/// `TIFFMergeFieldInfo` whenever it starts a directory (`TIFFDefaultDirectory` → `_TIFFSetupFields`, then the tag
/// extender), so the registration runs from a tag extender (`TIFFSetTagExtender`), which libtiff calls for every
/// directory it reads or creates. libtiff keeps one extender per process: this is rawcap's only one, installed once,
/// and it chains to whatever was installed before it. Registering a tag libtiff already knows is harmless:
/// `_TIFFMergeFields` keeps the existing definition (tif_dirinfo.c).
///
/// Files opened under ``readerFileName`` (the raw reader's) get the reading definitions: the catalog's counts, except
/// that ASCII and BYTE values may have any length, since a reader takes what a file holds and inspects each field at
/// run time. Every other file (the writer's) gets the catalog's counts as they are, which the writer's `TIFFSetField`
/// calls follow (NewRawImageDigest passes 16 bytes without a count).
public enum TIFFFieldRegistry {
    /// The name the raw reader gives libtiff for every file it opens; the extender recognises its files by it.
    public static let readerFileName = "rawcap-raw-reader"

    /// Installs the extender once per process; every call after the first does nothing.
    public static func install() { _ = installation }

    /// The tags registered.
    static let registeredTags: [TIFFTag] = TIFFTag.catalog.filter(\.isRegisteredWithLibTIFF)

    /// Swift initialises a static `let` exactly once, thread-safely.
    private static let installation: Void = {
        previousExtender = TIFFSetTagExtender(extendFields)
    }()

    /// The extender that was installed before ours (libtiff's convention is to chain them). Written once, inside
    /// `installation`'s one-time initialiser, before any TIFF is opened through rawcap.
    nonisolated(unsafe) private static var previousExtender: TIFFExtendProc?

    /// The writer's field descriptions: the catalog's counts.
    nonisolated(unsafe) private static let writingTable = table(readerCounts: false)
    /// The reader's field descriptions: any length for ASCII and BYTE values.
    nonisolated(unsafe) private static let readingTable = table(readerCounts: true)

    /// Field descriptions allocated once and kept for the process's lifetime: libtiff keeps pointers to them
    /// (including the names) in every TIFF that merges them.
    private static func table(readerCounts: Bool) -> UnsafeMutableBufferPointer<TIFFFieldInfo> {
        let buffer = UnsafeMutableBufferPointer<TIFFFieldInfo>.allocate(capacity: registeredTags.count)
        for (index, tag) in registeredTags.enumerated() {
            let variable = tag.count == nil || (readerCounts && (tag.type == .ascii || tag.type == .byte))
            let count: Int16 = variable ? Int16(TIFF_VARIABLE) : Int16(clamping: tag.count ?? 0)
            buffer[index] = TIFFFieldInfo(
                field_tag: UInt32(tag.rawValue),
                field_readcount: count,
                field_writecount: count,
                field_type: TIFFDataType(UInt32(tag.type.rawValue)),
                field_bit: UInt16(FIELD_CUSTOM),
                field_oktochange: 1,
                // Variable-length arrays pass their count (uint16); strings and fixed-size arrays do not
                // (`_TIFFVSetField` asserts that a counted ASCII field has write count TIFF_VARIABLE2).
                field_passcount: variable && tag.type != .ascii ? 1 : 0,
                field_name: strdup(tag.name))
        }
        return buffer
    }

    /// Called by libtiff at the start of every directory.
    fileprivate static func merge(into tif: OpaquePointer?) {
        guard let tif else { return }
        let isReaders = TIFFFileName(tif).map { String(cString: $0) == readerFileName } ?? false
        let table = isReaders ? readingTable : writingTable
        // Failure only means an allocation failed; the tags are then unknown to libtiff (a reader reads them as
        // anonymous fields, a writer's TIFFSetField fails with a message).
        _ = TIFFMergeFieldInfo(tif, table.baseAddress, UInt32(table.count))
        previousExtender?(tif)
    }
}

/// The C-callable tag extender (`TIFFExtendProc`).
private func extendFields(_ tif: OpaquePointer?) {
    TIFFFieldRegistry.merge(into: tif)
}
