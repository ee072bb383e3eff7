import Foundation

/// Writes seed corpora for the fuzz targets: `FuzzSeeds <target> <directory>`.
///
/// Seeds are small valid inputs that reach every part of a parser, so the fuzzer starts from deep coverage
/// instead of having to discover the format. They are deterministic, so regenerating them changes nothing.
@main
struct FuzzSeeds {
    static func main() throws {
        let arguments = CommandLine.arguments
        guard arguments.count == 3 else {
            print("usage: FuzzSeeds <target> <directory>")
            exit(64)
        }
        let directory = URL(fileURLWithPath: arguments[2], isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let seeds: [(String, [UInt8])]
        switch arguments[1] {
        case "FuzzPTPContainers": seeds = PTPSeeds.containers()
        case "FuzzPTPIP": seeds = PTPSeeds.ptpip()
        case "FuzzPTPDatasets": seeds = try PTPSeeds.datasets()
        case "FuzzPTPTransport": seeds = PTPSeeds.transport()
        case "FuzzLJ92": seeds = try LJ92Seeds.streams()
        case "FuzzPcap": seeds = try pcapSeeds()
        case "FuzzRawFile": seeds = try RawFileSeeds.files()
        case "FuzzLibRaw": seeds = try RawFileSeeds.vendorFiles()
        default:
            print("FuzzSeeds: no seeds for \(arguments[1])")
            exit(64)
        }
        for (name, bytes) in seeds {
            try Data(bytes).write(to: directory.appendingPathComponent(name))
        }
        print("FuzzSeeds: wrote \(seeds.count) seeds to \(directory.path)")
    }
}
