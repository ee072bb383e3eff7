// swift-tools-version:6.1
import PackageDescription

/// libFuzzer targets for rawcap's parsers of untrusted bytes, kept out of the main package so its build never links
/// fuzz entry points. `make fuzz` builds every target with `--sanitize=fuzzer --sanitize=address` and runs each for
/// FUZZ_SECONDS on a seed corpus under corpus/<target>/; FuzzSeeds regenerates those seeds.
///
/// To add a target: an executable target here whose `@_cdecl("LLVMFuzzerTestOneInput")` feeds one parser, a case
/// in FuzzSeeds that writes its seeds, and its name in the Makefile's FUZZ_TARGETS.
let package = Package(
    name: "RawcapFuzz",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "rawcap", path: "..")
    ],
    targets: [
        // PTP over USB: the bulk-IN container framer, whole containers, device status blocks.
        .executableTarget(name: "FuzzPTPContainers", dependencies: [.product(name: "PTP", package: "rawcap")]),
        // PTP/IP: the packet frame decoder and every packet type's payload.
        .executableTarget(name: "FuzzPTPIP", dependencies: [.product(name: "PTP", package: "rawcap")]),
        // PTP datasets and values, one parser chosen by the first byte.
        .executableTarget(name: "FuzzPTPDatasets", dependencies: [.product(name: "PTP", package: "rawcap")]),
        // The USB and PTP/IP transports answering one transaction from device bytes the fuzzer writes.
        .executableTarget(name: "FuzzPTPTransport", dependencies: [.product(name: "PTP", package: "rawcap")]),
        // LJ92 decoder: frame header, marker segments, Huffman tables, entropy-coded data.
        .executableTarget(
            name: "FuzzLJ92", dependencies: [.product(name: "LosslessJPEG", package: "rawcap")]),
        // The pcap/pcapng reader and the PTP conversation rebuilt from a capture: blocks, link layers, TCP
        // reassembly, PTP/IP and USB framing.
        .executableTarget(name: "FuzzPcap", dependencies: [.product(name: "PTPRecord", package: "rawcap")]),
        // rawcap's own raw-file reader: TIFF structure, DNG and TIFF/EP tags, strips and tiles, LJ92 tiles, previews.
        .executableTarget(name: "FuzzRawFile", dependencies: [.product(name: "RawDecoders", package: "rawcap")]),
        // The vendor raw path: RawDecoder's dispatch with LibRaw contained in rawcap's decode worker (a child
        // process); what is fuzzed is that nothing LibRaw does reaches the caller.
        .executableTarget(name: "FuzzLibRaw", dependencies: [.product(name: "RawDecoders", package: "rawcap")]),
        // Writes the seed corpora (small valid inputs of each kind) into corpus/<target>/.
        .executableTarget(
            name: "FuzzSeeds",
            dependencies: [
                .product(name: "PTP", package: "rawcap"), .product(name: "LosslessJPEG", package: "rawcap"),
                .product(name: "PTPRecord", package: "rawcap"), .product(name: "DNG", package: "rawcap"),
                .product(name: "JPEG", package: "rawcap"), .product(name: "SceneSynthesis", package: "rawcap"),
                .product(name: "RawImage", package: "rawcap"), .product(name: "CameraEmulator", package: "rawcap"),
            ]),
    ]
)
