import CLibTIFF
import DNG
import Foundation
import RawImage
import TIFFVocabulary
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Each way writing can fail ends in a typed DNGError with the reason, never in a crash or a half-written file.
@Suite struct DNGWriterErrorTests {
    private func smallPlan() throws -> DNGPlan {
        let frame = try TestImages.frame(width: 64, height: 48, bitsPerSample: 12, cfa: .rggb)
        return try DNGEncoder().plan(for: frame, previews: try TestImages.previews(of: frame))
    }

    @Test func aDeviceWithNoSpaceIsADiskFullError() throws {
        // /dev/full accepts the open and the seeks and fails every write with ENOSPC.
        let descriptor = open("/dev/full", O_RDWR | O_CLOEXEC)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let error = #expect(throws: DNGError(.diskFull)) {
            try DNGWriter.write(try smallPlan(), fileDescriptor: descriptor, name: "/dev/full")
        }
        #expect(error?.errno == ENOSPC)
        #expect(error?.description.contains("/dev/full") == true)
    }

    @Test func anExistingDestinationFailsBeforeEncoding() throws {
        let folder = try TemporaryDirectory("writer-exists")
        let path = folder.file("shot.dng").path
        try Data("keep".utf8).write(to: URL(fileURLWithPath: path))
        let frame = try TestImages.frame(width: 16, height: 16, bitsPerSample: 12, cfa: .rggb)
        #expect(throws: DNGError(.fileExists)) {
            try DNGWriter.write(frame, previews: try TestImages.previews(of: frame), to: path)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("keep".utf8))
    }

    @Test func libtiffsOwnMessageIsInTheError() throws {
        // SamplesPerPixel 0 passes the plan's type checks; libtiff rejects the value and says why.
        let entries = [
            try DNGEntry(.newSubfileType, .long(0)), try DNGEntry(.imageWidth, .long(8)),
            try DNGEntry(.imageLength, .long(8)), try DNGEntry(.samplesPerPixel, .short(0)),
        ]
        let plan = try DNGPlan(root: try DNGDirectory(entries: entries))
        let folder = try TemporaryDirectory("writer-libtiff")
        let error = #expect(throws: DNGError(.libtiff)) { try DNGWriter.write(plan, to: folder.file("bad.dng").path) }
        #expect(error?.detail.contains("SamplesPerPixel") == true, "\(String(describing: error))")
        #expect(try folder.contents().isEmpty)
    }

    @Test func aTagLibtiffDoesNotKnowIsRefused() throws {
        let entries = [
            try DNGEntry(.newSubfileType, .long(0)), try DNGEntry(TIFFTag(rawValue: 65000, type: .short), .short(1)),
        ]
        let plan = try DNGPlan(root: try DNGDirectory(entries: entries))
        let folder = try TemporaryDirectory("writer-unknown")
        let error = #expect(throws: DNGError(.libtiff)) { try DNGWriter.write(plan, to: folder.file("x.dng").path) }
        #expect(error?.detail.contains("Unknown(0xFDE8)") == true)
        #expect(try folder.contents().isEmpty)
    }

    @Test func aTagWithTheWrongTypeForLibtiffIsRefused() throws {
        // ImageWidth declared SHORT here, LONG in libtiff's table.
        let entries = [try DNGEntry(.newSubfileType, .long(0)), try DNGEntry(TIFFTag(rawValue: 256, type: .short), .short(8))]
        let plan = try DNGPlan(root: try DNGDirectory(entries: entries))
        let folder = try TemporaryDirectory("writer-type")
        #expect(throws: DNGError(.invalidPlan)) { try DNGWriter.write(plan, to: folder.file("x.dng").path) }
    }

    @Test func aLinearizationTableLongerThanLibtiffAcceptsDoesNotFit() throws {
        let image = try LinearImage(
            width: 4, height: 4, bitsPerSample: 16, samples: [UInt16](repeating: 100, count: 48),
            blackLevels: [0, 0, 0], whiteLevels: [65535, 65535, 65535],
            linearizationTable: (0..<65536).map { UInt16($0) })
        let plan = try DNGEncoder().plan(
            for: image, previews: DNGPreviews(thumbnail: try LinearTestImages.thumbnail(of: image), preview: nil))
        let folder = try TemporaryDirectory("writer-table")
        #expect(throws: DNGError(.doesNotFit)) { try DNGWriter.write(plan, to: folder.file("x.dng").path) }
        #expect(try folder.contents().isEmpty)
    }

    @Test func everyCatalogTagHasLibtiffsTypeOnceRegistered() throws {
        // Write one tiny file so the tag extender is installed, then ask libtiff about every tag in its own
        // directory kind (EXIF tags live in the EXIF field table).
        let folder = try TemporaryDirectory("writer-catalog")
        try DNGWriter.write(try smallPlan(), to: folder.file("a.dng").path)
        let path = folder.file("probe.tif").path
        let tif = try #require(TIFFOpen(path, "w"))
        defer { TIFFClose(tif) }
        // libtiff knows Predictor only once a compression that uses it is set (tif_predict.c, TIFFPredictorInit).
        #expect(rc_tiff_set_u16(tif, UInt32(TIFFTAG_COMPRESSION), UInt16(COMPRESSION_ADOBE_DEFLATE)) == 1)
        let exifIDs: Set<UInt16> = [
            33434, 33437, 34855, 34864, 34866, 36864, 36867, 36881, 37380, 37386, 37521, 40960, 40961, 41730, 42033, 42036,
        ]
        for tag in TIFFTag.catalog where !exifIDs.contains(tag.rawValue) && !TIFFTag.writerManaged.contains(tag.rawValue) {
            let field = TIFFFindField(tif, UInt32(tag.rawValue), TIFF_NOTYPE)
            #expect(field != nil, "\(tag) unknown to libtiff")
            if let field { #expect(TIFFFieldDataType(field).rawValue == UInt32(tag.type.rawValue), "\(tag)") }
        }
        _ = TIFFCreateEXIFDirectory(tif)
        for tag in TIFFTag.catalog where exifIDs.contains(tag.rawValue) {
            let field = TIFFFindField(tif, UInt32(tag.rawValue), TIFF_NOTYPE)
            #expect(field != nil, "\(tag) unknown to libtiff's EXIF table")
            if let field { #expect(TIFFFieldDataType(field).rawValue == UInt32(tag.type.rawValue), "\(tag)") }
        }
    }
}
