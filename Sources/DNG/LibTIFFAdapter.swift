import CLibTIFF
import OutputFiles
import TIFFVocabulary

/// Transcribes a plan into one open libtiff handle: fields through the typed `rc_tiff_set_*` wrappers, pixel data
/// through `TIFFWriteRawStrip`/`TIFFWriteRawTile`.
///
/// How each value is passed depends on libtiff's own field definition, read at run time: whether the count is passed
/// (`TIFFFieldPassCount`) and as 16 or 32 bits (`TIFFFieldSetGetCountSize`), and the element size libtiff expects
/// (`TIFFFieldSetGetSize`) — 4 for the DNG rationals libtiff stores as `float`, 8 for the EXIF ones it stores as
/// `double` (dng-facts.md fact 5).
struct LibTIFFAdapter {
    let tif: OpaquePointer
    let context: TIFFFileContext

    func write(_ plan: DNGPlan) throws(DNGError) {
        var exifOffset: UInt64?
        if let exif = plan.root.exif {
            guard TIFFCreateEXIFDirectory(tif) == 0 else { throw context.failure("TIFFCreateEXIFDirectory") }
            for entry in exif.entries { try set(entry) }
            var offset: UInt64 = 0
            guard TIFFWriteCustomDirectory(tif, &offset) == 1 else { throw context.failure("TIFFWriteCustomDirectory") }
            exifOffset = offset
            // Back to an ordinary image directory (this also runs the tag extender again).
            TIFFFreeDirectory(tif)
            _ = TIFFCreateDirectory(tif)
        }
        try writeImageDirectory(plan.root, subIFDCount: plan.root.subDirectories.count, exifOffset: exifOffset)
        for child in plan.root.subDirectories {
            try writeImageDirectory(child, subIFDCount: 0, exifOffset: nil)
        }
    }

    private func writeImageDirectory(
        _ directory: DNGDirectory, subIFDCount: Int, exifOffset: UInt64?
    ) throws(DNGError) {
        for entry in directory.entries { try set(entry) }
        if subIFDCount > 0 {
            // libtiff fills the offsets in as it writes the next `subIFDCount` directories.
            let placeholders = [UInt64](repeating: 0, count: subIFDCount)
            guard rc_tiff_set_subifds(tif, UInt16(clamping: subIFDCount), placeholders) == 1 else {
                throw context.failure("TIFFSetField(SubIFDs)")
            }
        }
        if let exifOffset {
            guard rc_tiff_set_u64(tif, UInt32(TIFFTAG_EXIFIFD), exifOffset) == 1 else {
                throw context.failure("TIFFSetField(ExifIFD)")
            }
        }
        if let image = directory.image {
            // Ask the kernel to start writing back every few megabytes, so that the fsync when the file is published
            // finds little left to do (lossless tiles arrive over the whole encoding time).
            var sinceWriteback = 0
            for (index, chunk) in image.chunks.enumerated() {
                try chunk.withUnsafeFileBytes { bytes throws(DNGError) in
                    guard let base = bytes.baseAddress else {
                        throw DNGError(.invalidPlan, path: context.name, "chunk \(index) is empty")
                    }
                    let data = UnsafeMutableRawPointer(mutating: base)
                    let size = tmsize_t(bytes.count)
                    let written: tmsize_t
                    switch image.layout {
                    case .strips: written = TIFFWriteRawStrip(tif, UInt32(index), data, size)
                    case .tiles: written = TIFFWriteRawTile(tif, UInt32(index), data, size)
                    }
                    guard written == size else { throw context.failure("TIFFWriteRaw chunk \(index)") }
                    sinceWriteback += bytes.count
                }
                if sinceWriteback >= 4 << 20 {
                    OutputFile.startWriteback(context.fileDescriptor)
                    sinceWriteback = 0
                }
            }
        }
        guard TIFFWriteDirectory(tif) == 1 else { throw context.failure("TIFFWriteDirectory") }
    }

    /// Sets one field, choosing the C calling form from libtiff's definition of the tag.
    func set(_ entry: DNGEntry) throws(DNGError) {
        let tag = UInt32(entry.tag.rawValue)
        guard let field = TIFFFindField(tif, tag, TIFF_NOTYPE) else {
            throw DNGError(.libtiff, path: context.name, "libtiff does not know \(entry.tag) (tag \(tag))")
        }
        let declared = TIFFFieldDataType(field).rawValue
        guard declared == UInt32(entry.tag.type.rawValue) else {
            throw DNGError(
                .invalidPlan, path: context.name,
                "libtiff declares \(entry.tag) as \(TIFFType(rawValue: UInt16(clamping: declared))), "
                    + "the plan has \(entry.tag.type)")
        }
        let accepted: Int32
        switch (entry.tag.rawValue, entry.value) {
        case (TIFFTag.bitsPerSample.rawValue, .shorts(let bits)):
            // libtiff keeps one BitsPerSample for all samples and writes it SamplesPerPixel times.
            guard let first = bits.first, bits.allSatisfy({ $0 == first }) else {
                throw DNGError(.invalidPlan, path: context.name, "BitsPerSample \(bits) differs between samples")
            }
            accepted = rc_tiff_set_u16(tif, tag, first)
        case (TIFFTag.yCbCrSubSampling.rawValue, .shorts(let factors)) where factors.count == 2:
            // _TIFFVSetField reads YCbCrSubSampling as two separate int arguments.
            accepted = rc_tiff_set_u16_pair(tif, tag, factors[0], factors[1])
        case (_, .ascii(let text)):
            accepted = rc_tiff_set_string(tif, tag, text)
        default:
            accepted = try setGeneric(entry, field: field)
        }
        guard accepted == 1 else { throw context.failure("TIFFSetField(\(entry.tag))") }
    }

    private func setGeneric(_ entry: DNGEntry, field: OpaquePointer) throws(DNGError) -> Int32 {
        let tag = UInt32(entry.tag.rawValue)
        let count = entry.value.count
        let elementSize = Int(TIFFFieldSetGetSize(field))
        let elements = try pack(entry, elementSize: elementSize)
        if TIFFFieldPassCount(field) != 0 {
            if TIFFFieldSetGetCountSize(field) == 2 {
                guard let count16 = UInt16(exactly: count) else {
                    throw DNGError(
                        .doesNotFit, path: context.name,
                        "\(entry.tag) has \(count) values; libtiff passes this tag's count as 16 bits")
                }
                return elements.withUnsafeBytes { rc_tiff_set_array_c16(tif, tag, count16, $0.baseAddress) }
            }
            return elements.withUnsafeBytes { rc_tiff_set_array_c32(tif, tag, UInt32(count), $0.baseAddress) }
        }
        let writeCount = Int(TIFFFieldWriteCount(field))
        if writeCount == 1 {
            guard count == 1 else {
                throw DNGError(
                    .invalidPlan, path: context.name, "libtiff takes one value for \(entry.tag), got \(count)")
            }
            switch entry.value {
            case .bytes(let values), .undefined(let values): return rc_tiff_set_u16(tif, tag, UInt16(values[0]))
            case .shorts(let values) where elementSize == 2: return rc_tiff_set_u16(tif, tag, values[0])
            case .shorts(let values): return rc_tiff_set_u32(tif, tag, UInt32(values[0]))
            case .longs(let values): return rc_tiff_set_u32(tif, tag, values[0])
            // Variadic C promotes float to double, and libtiff reads both set types with va_arg(ap, double).
            case .rationals(let values), .srationals(let values): return rc_tiff_set_double(tif, tag, values[0])
            case .floats(let values): return rc_tiff_set_double(tif, tag, Double(values[0]))
            case .ascii: return 0
            }
        }
        guard writeCount == count else {
            throw DNGError(
                .invalidPlan, path: context.name, "libtiff takes \(writeCount) values for \(entry.tag), got \(count)")
        }
        return elements.withUnsafeBytes { rc_tiff_set_array(tif, tag, $0.baseAddress) }
    }

    /// The values in the memory form libtiff reads for this field: `elementSize` bytes each, host byte order.
    private func pack(_ entry: DNGEntry, elementSize: Int) throws(DNGError) -> [UInt8] {
        func bytes<T>(_ values: [T]) -> [UInt8] { values.withUnsafeBytes { Array($0) } }
        switch (entry.value, elementSize) {
        case (.bytes(let values), 1), (.undefined(let values), 1): return values
        case (.shorts(let values), 2): return bytes(values)
        case (.shorts(let values), 4): return bytes(values.map(UInt32.init))
        case (.longs(let values), 4): return bytes(values)
        case (.longs(let values), 8): return bytes(values.map(UInt64.init))
        case (.rationals(let values), 4), (.srationals(let values), 4): return bytes(values.map(Float.init))
        case (.rationals(let values), 8), (.srationals(let values), 8): return bytes(values)
        case (.floats(let values), 4): return bytes(values)
        case (.floats(let values), 8): return bytes(values.map(Double.init))
        case (.ascii, _): return []
        default:
            throw DNGError(
                .libtiff, path: context.name,
                "libtiff stores \(entry.tag) in \(elementSize)-byte elements, which \(entry.value.type) cannot fill")
        }
    }
}
