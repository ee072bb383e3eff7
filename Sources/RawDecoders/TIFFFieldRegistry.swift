import CLibTIFF

/// Teaches libtiff the tags it does not know, so that it reads them with their proper types instead of as
/// anonymous fields.
///
/// libtiff 4.5.0 knows only the DNG 1.0/1.1 tags; ForwardMatrix1/2, ProfileToneCurve, the opcode lists,
/// NoiseProfile, NewRawImageDigest and the other DNG 1.2+ tags must be registered with `TIFFMergeFieldInfo`
/// (notes/dng-facts.md facts 4 and 6, which also advise registering the CFA tags defensively because 4.5.1 dropped
/// them). TIFF/EP files (ISO 12234-2) put EXIF fields such as ExposureTime directly in IFD 0, where libtiff's
/// default field table does not have them either.
///
/// Registration has to go through libtiff's tag extender (`TIFFSetTagExtender`): every `TIFFReadDirectory`
/// resets the field table to libtiff's defaults before reading (`TIFFDefaultDirectory` → `_TIFFSetupFields`, which
/// then calls the extender), so a `TIFFMergeFieldInfo` call made after opening is lost at the next directory and
/// the tags come back as anonymous fields (checked on libtiff 4.5.0). The extender is process-wide, so it only
/// registers fields in files opened by the reader (named ``fileName``) and otherwise just calls the extender
/// installed before it: the DNG writer registers its own definitions for the tags it writes (fixed counts where
/// this reader accepts any), and a definition from here must never reach its `TIFFSetField` calls. The reader
/// itself copes with either definition, because it inspects each field at run time.
enum TIFFFieldRegistry {
    /// The name the reader gives libtiff for every file it opens; the extender recognises its files by it.
    static let fileName = "rawcap-raw-reader"

    /// One extra field: its tag, C type, element count (`-1` for variable) and name.
    private struct Field {
        let tag: TIFFTag
        let type: TIFFDataType
        let count: Int16
        let name: String
    }

    private static let fields: [Field] = [
        // TIFF/EP CFA tags: known to 4.5.0 and 4.6, missing in 4.5.1 (dng-facts fact 6).
        Field(tag: .cfaRepeatPatternDim, type: TIFF_SHORT, count: 2, name: "CFARepeatPatternDim"),
        Field(tag: .cfaPattern, type: TIFF_BYTE, count: -1, name: "CFAPattern"),
        // TIFF/EP exposure fields in IFD 0 (ISO 12234-2 §5.2.2; same numbers and types as in EXIF).
        Field(tag: .exposureTime, type: TIFF_RATIONAL, count: 1, name: "ExposureTime"),
        Field(tag: .fNumber, type: TIFF_RATIONAL, count: 1, name: "FNumber"),
        Field(tag: .isoSpeedRatings, type: TIFF_SHORT, count: -1, name: "ISOSpeedRatings"),
        Field(tag: .dateTimeOriginal, type: TIFF_ASCII, count: -1, name: "DateTimeOriginal"),
        Field(tag: .exposureBiasValue, type: TIFF_SRATIONAL, count: 1, name: "ExposureBiasValue"),
        Field(tag: .focalLength, type: TIFF_RATIONAL, count: 1, name: "FocalLength"),
        // DNG 1.2 and later (DNG 1.7 spec; numbers from dng-facts §1.6 and the SDK's dng_tag_codes.h).
        Field(tag: TIFFTag(rawValue: 50879), type: TIFF_SHORT, count: 1, name: "ColorimetricReference"),
        Field(tag: TIFFTag(rawValue: 50934), type: TIFF_ASCII, count: -1, name: "AsShotProfileName"),
        Field(tag: .profileName, type: TIFF_ASCII, count: -1, name: "ProfileName"),
        Field(tag: .profileToneCurve, type: TIFF_FLOAT, count: -1, name: "ProfileToneCurve"),
        Field(tag: TIFFTag(rawValue: 50941), type: TIFF_LONG, count: 1, name: "ProfileEmbedPolicy"),
        Field(tag: TIFFTag(rawValue: 50942), type: TIFF_ASCII, count: -1, name: "ProfileCopyright"),
        Field(tag: .forwardMatrix1, type: TIFF_SRATIONAL, count: -1, name: "ForwardMatrix1"),
        Field(tag: .forwardMatrix2, type: TIFF_SRATIONAL, count: -1, name: "ForwardMatrix2"),
        Field(tag: TIFFTag(rawValue: 50966), type: TIFF_ASCII, count: -1, name: "PreviewApplicationName"),
        Field(tag: TIFFTag(rawValue: 50967), type: TIFF_ASCII, count: -1, name: "PreviewApplicationVersion"),
        Field(tag: TIFFTag(rawValue: 50968), type: TIFF_ASCII, count: -1, name: "PreviewSettingsName"),
        Field(tag: TIFFTag(rawValue: 50969), type: TIFF_BYTE, count: -1, name: "PreviewSettingsDigest"),
        Field(tag: .previewColorSpace, type: TIFF_LONG, count: 1, name: "PreviewColorSpace"),
        Field(tag: TIFFTag(rawValue: 50971), type: TIFF_ASCII, count: -1, name: "PreviewDateTime"),
        Field(tag: .opcodeList1, type: TIFF_UNDEFINED, count: -1, name: "OpcodeList1"),
        Field(tag: .opcodeList2, type: TIFF_UNDEFINED, count: -1, name: "OpcodeList2"),
        Field(tag: .opcodeList3, type: TIFF_UNDEFINED, count: -1, name: "OpcodeList3"),
        Field(tag: .noiseProfile, type: TIFF_DOUBLE, count: -1, name: "NoiseProfile"),
        Field(tag: TIFFTag(rawValue: 51109), type: TIFF_SRATIONAL, count: 1, name: "BaselineExposureOffset"),
        Field(tag: .defaultBlackRender, type: TIFF_LONG, count: 1, name: "DefaultBlackRender"),
        Field(tag: .newRawImageDigest, type: TIFF_BYTE, count: -1, name: "NewRawImageDigest"),
        Field(tag: TIFFTag(rawValue: 51125), type: TIFF_RATIONAL, count: 4, name: "DefaultUserCrop"),
    ]

    /// The C table handed to `TIFFMergeFieldInfo`. libtiff keeps pointers to the names, so the table and its
    /// strings are allocated once and live as long as the process.
    nonisolated(unsafe) private static let table: UnsafeMutableBufferPointer<TIFFFieldInfo> = {
        let table = UnsafeMutableBufferPointer<TIFFFieldInfo>.allocate(capacity: fields.count)
        for (index, field) in fields.enumerated() {
            // Variable-length values pass their count, except ASCII, which libtiff sizes itself (`_TIFFVSetField`
            // asserts that a counted ASCII field has write count TIFF_VARIABLE2).
            let passCount = field.count < 0 && field.type != TIFF_ASCII
            table[index] = TIFFFieldInfo(
                field_tag: UInt32(field.tag.rawValue),
                field_readcount: field.count,
                field_writecount: field.count,
                field_type: field.type,
                field_bit: UInt16(FIELD_CUSTOM),
                field_oktochange: 1,
                field_passcount: passCount ? 1 : 0,
                field_name: permanentCString(field.name))
        }
        return table
    }()

    /// A NUL-terminated copy of `text` that is never freed.
    private static func permanentCString(_ text: String) -> UnsafeMutablePointer<CChar> {
        let utf8 = Array(text.utf8CString)
        let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: utf8.count)
        pointer.initialize(from: utf8, count: utf8.count)
        return pointer
    }

    /// The extender that was installed before ours, called after ours.
    nonisolated(unsafe) private static var previousExtender: TIFFExtendProc?

    /// Installs the extender; runs once per process (Swift initialises a static `let` exactly once, thread-safely).
    static let installed: Void = {
        previousExtender = TIFFSetTagExtender(extendFields)
    }()

    /// Called by libtiff at the start of every directory it reads.
    fileprivate static func merge(into tif: OpaquePointer?) {
        guard let tif else { return }
        if let name = TIFFFileName(tif), String(cString: name) == fileName {
            // Failure only means an allocation failed; the tags are then read as anonymous fields, which still works.
            _ = TIFFMergeFieldInfo(tif, table.baseAddress, UInt32(table.count))
        }
        previousExtender?(tif)
    }
}

/// The C-callable tag extender (`TIFFExtendProc`).
private func extendFields(_ tif: OpaquePointer?) {
    TIFFFieldRegistry.merge(into: tif)
}
