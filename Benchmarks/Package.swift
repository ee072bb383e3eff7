// swift-tools-version:6.1
import PackageDescription

/// rawcap's speed measurements, kept out of the main package so its build never links them.
/// Run with `make bench` (`swift run -c release RawcapBench`); `RawcapBench --help` lists the options.
let package = Package(
    name: "RawcapBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "rawcap", path: "..")
    ],
    targets: [
        .executableTarget(
            name: "RawcapBench",
            dependencies: [
                .product(name: "LosslessJPEG", package: "rawcap"),
                .product(name: "RawImage", package: "rawcap"),
                .product(name: "RawDecoders", package: "rawcap"),
                .product(name: "DNG", package: "rawcap"),
                .product(name: "OutputFiles", package: "rawcap"),
                .product(name: "Capture", package: "rawcap"),
                .product(name: "CameraEmulator", package: "rawcap"),
                .product(name: "PTP", package: "rawcap"),
            ]
        )
    ]
)
