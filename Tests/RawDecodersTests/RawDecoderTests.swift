import Foundation
import RawDecoders
import RawImage
import TestSupport
import Testing

@Suite struct RawDecoderTests {
    @Test func detectsFormatsByContent() {
        var dng = TestRawFile()
        var tiffEP = TestRawFile(placement: .ifd0, isDNG: false)
        var vendorTIFF = TestRawFile(placement: .ifd0, isDNG: false)
        vendorTIFF.rawTags = [259: .short([34713])]  // Nikon NEF compression: LibRaw's job
        var rgbTIFF = TestRawFile(placement: .ifd0, isDNG: false, photometric: 2)
        #expect(RawDecoder.detectFormat(dng.build()[...]) == .dng)
        #expect(RawDecoder.detectFormat(tiffEP.build()[...]) == .tiffEP)
        #expect(RawDecoder.detectFormat(vendorTIFF.build()[...]) == .vendor)
        #expect(RawDecoder.detectFormat(rgbTIFF.build()[...]) == .vendor)
        #expect(RawDecoder.detectFormat([0x49, 0x49, 0x52, 0x4F, 8, 0, 0, 0][...]) == .vendor)  // ORF "IIRO"
        #expect(RawDecoder.detectFormat([][...]) == .vendor)
    }

    @Test func decodesADNGFromAFile() throws {
        let directory = try TemporaryDirectory("decoder")
        var file = TestRawFile(bitsPerSample: 14)
        try Data(file.build()).write(to: directory.file("a.dng"))
        let decoded = try RawDecoder.decode(contentsOf: directory.file("a.dng").path)
        #expect(decoded.frame?.samples == file.samples)
    }

    @Test func reportsUnreadableFilesAsIOErrors() throws {
        let directory = try TemporaryDirectory("decoder")
        #expect(throws: DecodeError(.io)) { try RawDecoder.decode(contentsOf: directory.file("missing.nef").path) }
        #expect(throws: DecodeError(.io)) { try RawDecoder.decode(contentsOf: directory.url.path) }
    }

    @Test func anEmptyFileIsTruncatedOrUnsupported() throws {
        let directory = try TemporaryDirectory("decoder")
        try Data().write(to: directory.file("empty.cr2"))
        #expect(throws: DecodeError.self) { try RawDecoder.decode(contentsOf: directory.file("empty.cr2").path) }
    }

    @Test func findsTheRGBThumbnailOfADNG() throws {
        var file = TestRawFile()
        let preview = try #require(try RawDecoder.embeddedPreview(file.build()[...]))
        guard case .rgb(let image) = preview else {
            Issue.record("expected an RGB thumbnail, got \(preview)")
            return
        }
        #expect(image.width == 4 && image.height == 2 && image.pixels.allSatisfy { $0 == 128 })
    }

    @Test func prefersAJPEGPreview() throws {
        var file = TestRawFile()
        // A minimal stand-in stream: SOI … EOI is all the reader checks before handing the bytes on.
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xD9]
        var raw = TIFFBuilder.IFD(tags: file.rawIFDTags(), data: file.imageData())
        let previewIFD = TIFFBuilder.IFD(
            tags: [
                254: .long([1]), 256: .long([640]), 257: .long([480]), 258: .short([8, 8, 8]), 259: .short([7]),
                262: .short([6]), 277: .short([3]),
            ],
            data: .strips(rowsPerStrip: 480, [jpeg]))
        raw.tags[254] = .long([0])
        let thumbnail: [UInt16: TIFFBuilder.Value] = [
            254: .long([1]), 256: .long([2]), 257: .long([1]), 258: .short([8, 8, 8]), 259: .short([1]),
            262: .short([2]), 277: .short([3]), 50706: .byte([1, 4, 0, 0]),
        ]
        let ifd0 = TIFFBuilder.IFD(
            tags: thumbnail, data: .strips(rowsPerStrip: 1, [[1, 2, 3, 4, 5, 6]]), subIFDs: [raw, previewIFD])
        let bytes = TIFFBuilder(chain: [ifd0])
        let built = bytes.build()
        let preview = try #require(try RawDecoder.embeddedPreview(built[...]))
        guard case .jpeg(let stream, let width, let height) = preview else {
            Issue.record("expected a JPEG preview, got \(preview)")
            return
        }
        #expect(stream == jpeg && width == 640 && height == 480)
        let info = try RawDecoder.decode(built[...]).info
        #expect(info.previews.first?.kind == .jpeg)
    }
}
