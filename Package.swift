// swift-tools-version:6.1
import PackageDescription

/// rawcap: capture RAW frames from PTP cameras and write them as DNG.
/// Module layout and dependency direction: ARCHITECTURE.md.
let package = Package(
    name: "rawcap",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "rawcap", targets: ["rawcap"]),
        // Libraries for the separate Benchmarks/ and Fuzz/ packages, which depend on this one by path.
        .library(name: "PTP", targets: ["PTP"]),
        .library(name: "LosslessJPEG", targets: ["LosslessJPEG"]),
        .library(name: "RawImage", targets: ["RawImage"]),
        .library(name: "SceneSynthesis", targets: ["SceneSynthesis"]),
        .library(name: "OutputFiles", targets: ["OutputFiles"]),
        .library(name: "JPEG", targets: ["JPEG"]),
        .library(name: "DNG", targets: ["DNG"]),
        .library(name: "RawDecoders", targets: ["RawDecoders"]),
        .library(name: "CameraEmulator", targets: ["CameraEmulator"]),
        .library(name: "PTPRecord", targets: ["PTPRecord"]),
        .library(name: "RawExport", targets: ["RawExport"]),
        .library(name: "Capture", targets: ["Capture"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // System-library shims. Each module map names one header with typed wrappers where C is variadic.
        .systemLibrary(name: "CLibTIFF", pkgConfig: "libtiff-4", providers: [.apt(["libtiff-dev"])]),
        // LibRaw's pkg-config file carries -fopenmp, which SwiftPM rejects: the module map links raw_r directly.
        .systemLibrary(name: "CLibRaw", providers: [.apt(["libraw-dev"])]),
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CLibUSB", pkgConfig: "libusb-1.0", providers: [.apt(["libusb-1.0-0-dev"])]),
        // OpenSSL's libcrypto for MD5 (DNG NewRawImageDigest) and SHA-256 (file checksums): already on every Debian
        // machine, and it avoids building BoringSSL through swift-crypto on every CI run.
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),

        // Pure code.
        .target(name: "WireFormat"),
        .target(name: "RawImage"),
        // The emulator's sensor: a synthetic scene, a lens and a sensor model that make RawFrames without a camera.
        .target(name: "SceneSynthesis", dependencies: ["RawImage"]),
        // What rawcap took from full Foundation, on FoundationEssentials and the C library instead (the executable
        // links no libFoundation and no ICU, which cost every command's start): printf-style numbers, whitespace
        // trimming, detached threads, a condition variable, whole writes to a descriptor, child processes.
        .target(name: "PlatformSupport"),
        // ITU T.81 process 14 lossless JPEG ("LJ92"): DNG's Compression 7. Shared by the DNG encoder and the readers.
        .target(name: "LosslessJPEG", dependencies: ["WireFormat", "PlatformSupport"]),
        // PTP codes, datasets, USB container and PTP/IP packet codecs, session logic. No IO.
        .target(
            name: "PTP",
            dependencies: ["WireFormat", .product(name: "Logging", package: "swift-log")]
        ),

        // Codecs and adapters.
        // libusb discovery and the bulk/interrupt pipe under PTPUSBTransport; the only importer of CLibUSB.
        .target(
            name: "PTPUSB",
            dependencies: ["PTP", "CLibUSB", "PlatformSupport", .product(name: "Logging", package: "swift-log")]
        ),
        // A fake USB camera for libusb programs (umockdev, loaded with dlopen at run time): tests and `rawcap sim usb`.
        .target(name: "CFakeUSB"),
        .target(name: "FakeUSB", dependencies: ["PTP", "CFakeUSB", "PlatformSupport"]),
        // PTP/IP over TCP: POSIX sockets, the host-side connector and the camera-side listener.
        .target(
            name: "PTPIP",
            dependencies: ["PTP", "WireFormat", "PlatformSupport", .product(name: "Logging", package: "swift-log")]
        ),
        // Recording to pcapng (usbmon, TCP/IPv4) and replaying pcap/pcapng captures as a PTP responder.
        .target(
            name: "PTPRecord",
            dependencies: ["PTP", "WireFormat", .product(name: "Logging", package: "swift-log")]
        ),
        // The one TIFF/EXIF/DNG tag catalog (number, name, type, count) and the one libtiff tag extender, shared by the
        // DNG writer and the raw reader.
        .target(name: "TIFFVocabulary", dependencies: ["CLibTIFF"]),
        .target(
            name: "RawDecoders",
            dependencies: [
                "RawImage", "WireFormat", "LosslessJPEG", "TIFFVocabulary", "CLibTIFF", "CLibRaw", "PlatformSupport",
            ]),
        // MD5 of many tiles at once in SIMD lanes: the DNG raw digest, several times faster than one MD5 at a time.
        .target(name: "CMultiMD5"),
        // Files rawcap saves, whatever they hold: a temporary name, fsync, publishing without replacing, the next
        // free name (`OutputFile`), the folder lock, SHA-256 and MD5 (`MessageDigest`), `OutputFileError`.
        .target(name: "OutputFiles", dependencies: ["CCrypto"]),
        // Baseline JPEG through libjpeg-turbo (previews rawcap renders, cameras' own JPEGs) and the frame header reader.
        .target(name: "JPEG", dependencies: ["RawImage", "WireFormat", "CTurboJPEG"]),
        .target(
            name: "DNG",
            dependencies: [
                "RawImage", "WireFormat", "LosslessJPEG", "JPEG", "OutputFiles", "TIFFVocabulary", "CLibTIFF", "CCrypto",
                "CMultiMD5",
            ]
        ),
        // The one step from a decoded raw to a written file (CFA or linear DNG, TIFF, original) that shoot, tether,
        // pull and convert share: linearisation, orientation, previews, the Software tag and free names.
        .target(name: "RawExport", dependencies: ["DNG", "JPEG", "OutputFiles", "RawDecoders", "RawImage"]),

        // The emulated camera: a strict PTP responder with a synthetic sensor, served through the PTP device sides.
        // JPEG encodes RAW+JPEG shots, thumbnails and live view frames.
        .target(
            name: "CameraEmulator",
            dependencies: [
                "PTP", "RawImage", "SceneSynthesis", "WireFormat", "DNG", "JPEG", "LosslessJPEG",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // Camera settings by readable name (iso=400, shutter=1/125), snapshots, and the raw formats a camera delivers.
        .target(
            name: "CameraControl",
            dependencies: ["PTP", "WireFormat", .product(name: "Logging", package: "swift-log")]
        ),
        // Shoot plans, format negotiation, capture drivers, the download/encode pipeline, the journal and pull.
        .target(
            name: "Capture",
            dependencies: [
                "PTP", "RawImage", "RawDecoders", "DNG", "JPEG", "OutputFiles", "RawExport", "CameraControl",
                "PlatformSupport", .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // The command line.
        .target(
            name: "RawcapCLI",
            dependencies: [
                "RawImage", "RawDecoders", "DNG", "JPEG", "OutputFiles", "RawExport", "WireFormat", "PTP", "PTPUSB",
                "PTPIP", "PTPRecord", "CameraEmulator", "FakeUSB", "CameraControl", "Capture", "PlatformSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(name: "rawcap", dependencies: ["RawcapCLI"]),

        // Helpers for the test targets only (interop tool lookup with the CI rule, subprocesses, temp folders).
        .target(name: "TestSupport", dependencies: [.product(name: "Logging", package: "swift-log")]),
        // A minimal PTP responder shared by the transport, recording and CLI tests.
        .target(name: "PTPTestSupport", dependencies: ["PTP"]),
        // That responder as a PTP/IP camera in a process of its own, for gphoto2 interop tests (gphoto2 gives up
        // after 2.5 s; in the test process, CPU-bound tests could starve the server).
        .executableTarget(
            name: "PTPIPTestCamera",
            dependencies: [
                "PTPIP", "PTPRecord", "PTPTestSupport", "PTP", .product(name: "Logging", package: "swift-log"),
            ]
        ),

        .testTarget(name: "WireFormatTests", dependencies: ["WireFormat"]),
        // PlatformSupport against full Foundation, which the tests may link.
        .testTarget(name: "PlatformSupportTests", dependencies: ["PlatformSupport"]),
        .testTarget(name: "RawImageTests", dependencies: ["RawImage", "SceneSynthesis", "TestSupport"]),
        .testTarget(name: "LosslessJPEGTests", dependencies: ["LosslessJPEG", "WireFormat", "TestSupport"]),
        .testTarget(
            name: "PTPTests",
            dependencies: ["PTP", "WireFormat", "TestSupport", .product(name: "Logging", package: "swift-log")]
        ),
        // libusb against the fake camera. The umockdev preload is linked into the test binary (it interposes open,
        // ioctl, stat… but redirects nothing until a testbed exists), so a plain `swift test` needs no LD_PRELOAD.
        .testTarget(
            name: "PTPUSBTests",
            dependencies: [
                "PTPUSB", "FakeUSB", "PTP", "WireFormat", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            linkerSettings: [.linkedLibrary("umockdev-preload", .when(platforms: [.linux]))]
        ),
        .testTarget(
            name: "PTPIPTests",
            dependencies: [
                "PTPIP", "PTP", "PTPTestSupport", "TestSupport", .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "PTPRecordTests",
            dependencies: [
                "PTPRecord", "PTPIP", "PTP", "WireFormat", "PTPTestSupport", "TestSupport", "Capture",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "CameraEmulatorTests",
            dependencies: [
                "CameraEmulator", "PTP", "RawImage", "SceneSynthesis", "RawDecoders", "DNG", "JPEG", "WireFormat",
                "TestSupport", "PTPIP", "PTPUSB", "FakeUSB", "PTPRecord",
            ],
            // The fake-USB reach runs libusb in the test process against umockdev's bus (see PTPUSBTests).
            linkerSettings: [.linkedLibrary("umockdev-preload", .when(platforms: [.linux]))]),
        .testTarget(
            name: "CameraControlTests",
            dependencies: ["CameraControl", "CameraEmulator", "PTP", "WireFormat", "TestSupport"]),
        .testTarget(name: "RawDecodersTests", dependencies: ["RawDecoders", "DNG", "RawImage", "LosslessJPEG", "TestSupport"]),
        .testTarget(
            name: "DNGTests",
            dependencies: [
                "DNG", "JPEG", "OutputFiles", "RawDecoders", "RawImage", "SceneSynthesis", "WireFormat", "LosslessJPEG",
                "TIFFVocabulary", "CLibTIFF", "CTurboJPEG", "TestSupport",
            ],
            // Python helpers the interop tests run with the venv's interpreter (rawpy, tifffile).
            exclude: ["Scripts"]),
        .testTarget(
            name: "CaptureTests",
            dependencies: [
                "Capture", "CameraControl", "CameraEmulator", "PTP", "DNG", "JPEG", "OutputFiles", "RawDecoders",
                "RawImage", "SceneSynthesis", "RawExport", "TestSupport", "PTPIP",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "RawcapCLITests",
            dependencies: [
                "RawcapCLI", "DNG", "JPEG", "OutputFiles", "RawDecoders", "RawImage", "SceneSynthesis", "RawExport",
                "Capture", "PTP", "PTPUSB", "PTPIP", "PTPRecord", "PTPTestSupport", "CameraEmulator", "TestSupport",
            ]
        ),
        // Independent clients against the emulated camera: gphoto2 over PTP/IP (`rawcap sim serve`) and over fake
        // USB (`rawcap sim usb`), and rawcap's own client over every reach, each in processes of their own.
        .testTarget(
            name: "InteropTests",
            dependencies: ["PTP", "PTPIP", "PTPRecord", "TestSupport", "RawDecoders", "RawImage", "DNG", "JPEG"],
            // Python helpers run with the venv's interpreter (Selenium driving Chromium).
            exclude: ["Scripts"]
        ),
    ]
)
