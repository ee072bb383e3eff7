import DNG
import Foundation
import OutputFiles
import RawDecoders
import RawImage

/// Writing a 6000 × 4000 14-bit RGGB frame as a DNG file (thumbnail, EXIF, colour tags; raw digest on unless the
/// row says otherwise), uncompressed and lossless, on one thread and on all cores, against a plain write of the
/// same 48 MB through the same `OutputFile` path (temporary file, `write`, `fsync`, publish, folder `fsync`); and the
/// NewRawImageDigest alone against one OpenSSL MD5 of the same bytes.
///
/// Targets: uncompressed at least 0.8 × the plain write; lossless at least 400 MB/s of 16-bit input with both
/// cores. Every row deletes its file again, inside the timing, as the reference row does.
enum DNGBenchmarks: BenchmarkGroup {
    static let name = "DNG"

    static func makeRows(options: BenchmarkOptions) throws -> [BenchmarkRow] {
        let frame = try options.inputPath.map(Self.frame(from:)) ?? Self.syntheticFrame(options: options)
        let width = frame.width
        let height = frame.height
        let samples = frame.samples
        let thumbnail = try RGBImage8(
            width: 256, height: 171, pixels: (0..<(256 * 171 * 3)).map { UInt8(truncatingIfNeeded: $0 / 97) })
        let previews = DNGPreviews(thumbnail: thumbnail, preview: nil)
        let bytes = samples.count * 2
        let plain = samples.withUnsafeBytes { Array($0) }

        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("rawcap-bench-\(getpid())", isDirectory: true).path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = "\(folder)/frame.dng"
        unlink(path)

        // Write each variant once before timing: a row must not report a number for an operation that fails.
        let threads = options.threads
        let variants: [(name: String, options: DNGOptions)] = [
            ("DNG uncompressed, 1 thread", DNGOptions(compression: .none, threadCount: 1)),
            ("DNG uncompressed, \(threads) threads", DNGOptions(compression: .none, threadCount: threads)),
            ("DNG uncompressed, no digest", DNGOptions(compression: .none, writesRawDigest: false)),
            ("DNG lossless, 1 thread", DNGOptions(compression: .lossless, threadCount: 1)),
            ("DNG lossless, \(threads) threads", DNGOptions(compression: .lossless, threadCount: threads)),
            (
                "DNG lossless, \(threads) threads, no digest",
                DNGOptions(compression: .lossless, threadCount: threads, writesRawDigest: false)
            ),
        ]
        var sizes: [String: Int] = [:]
        for variant in variants {
            sizes[variant.name] = try DNGWriter.write(frame, previews: previews, options: variant.options, to: path)
                .byteCount
            unlink(path)
        }

        let plainName = "plain write \(bytes / 1_000_000) MB + fsync"
        var rows = [
            BenchmarkRow(group: name, name: plainName, bytes: bytes, reference: nil) {
                do {
                    try OutputFile.write(plain, to: path)
                } catch {
                    preconditionFailure("plain write failed: \(error)")
                }
                unlink(path)
            }
        ]
        // The raw digest alone, against one OpenSSL MD5 over the same bytes (what the digest cost per tile before
        // the tiles were hashed side by side in SIMD lanes).
        let digests = Set(
            RawImageDigest.Kernel.allCases.filter(\.isSupported).map { kernel in
                samples.withUnsafeBufferPointer {
                    RawImageDigest.compute(
                        samples: $0, width: width, height: height, planes: 1, bytesPerSample: 2, threadCount: threads,
                        kernel: kernel)
                }
            })
        guard digests.count == 1 else { throw BenchmarkError("the digest kernels disagree: \(digests)") }
        let md5Name = "MD5 of \(bytes / 1_000_000) MB (OpenSSL), 1 thread"
        rows.append(
            BenchmarkRow(group: name, name: md5Name, bytes: bytes, reference: plainName) {
                _ = plain.withUnsafeBytes { MessageDigest.hash(.md5, $0) }
            })
        for threadCount in Set([1, threads]).sorted() {
            rows.append(
                BenchmarkRow(
                    group: name, name: "NewRawImageDigest alone, \(threadCount) thread\(threadCount == 1 ? "" : "s")",
                    bytes: bytes, reference: md5Name
                ) {
                    _ = samples.withUnsafeBufferPointer {
                        RawImageDigest.compute(
                            samples: $0, width: width, height: height, planes: 1, bytesPerSample: 2,
                            threadCount: threadCount)
                    }
                })
        }
        for variant in variants {
            let size = sizes[variant.name] ?? 0
            rows.append(
                BenchmarkRow(
                    group: name, name: variant.name, bytes: bytes, reference: plainName,
                    note: { "\(size / 1000) kB file, \(BenchmarkFormat.percent(size, of: bytes)) of input" }
                ) {
                    do {
                        try DNGWriter.write(frame, previews: previews, options: variant.options, to: path)
                    } catch {
                        preconditionFailure("\(variant.name) failed: \(error)")
                    }
                    unlink(path)
                })
        }
        return rows
    }

    /// The 14-bit RGGB test frame (`--frame`, 6000 × 4000 by default).
    static func syntheticFrame(options: BenchmarkOptions) throws -> RawFrame {
        let (width, height) = (options.frameWidth, options.frameHeight)
        return try RawFrame(
            width: width, height: height, bitsPerSample: 14,
            samples: SyntheticFrame.bayer(width: width, height: height, bitsPerSample: 14, seed: 7), cfa: .rggb,
            blackLevels: [1023, 1023, 1023, 1023], whiteLevel: 16383,
            metadata: CaptureMetadata(
                make: "rawcap", model: "Benchmark", serialNumber: "0001", exposureTime: Rational(1, 250),
                fNumber: 5.6, iso: 400, focalLength: 35))
    }

    /// The CFA frame of a raw file (`--input`), as `rawcap convert` decodes it: so the DNG rows time the same
    /// samples that a peer (PiDNG in `make bench-peers`) encodes.
    static func frame(from path: String) throws -> RawFrame {
        let decoded = try RawDecoder.decode(contentsOf: path)
        guard case .cfa(let frame) = decoded.image else {
            throw BenchmarkError("\(path) is not a CFA image; the DNG rows need one")
        }
        return frame
    }
}
