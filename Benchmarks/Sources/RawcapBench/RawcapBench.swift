import Foundation

/// rawcap's benchmark runner: times each row (one warm-up, then the median of `--runs` runs) and prints one table
/// with MB/s of 16-bit input and the ratio to the row's reference, measured in the same run.
///
/// To add rows, write a `BenchmarkGroup` in its own file and list it in `groups`.
@main
struct RawcapBench {
    static let groups: [any BenchmarkGroup.Type] = [
        LJ92Benchmarks.self,
        DNGBenchmarks.self,
        CaptureBenchmarks.self,
    ]

    static func main() throws {
        var options = BenchmarkOptions()
        var arguments = CommandLine.arguments.dropFirst()
        while let argument = arguments.popFirst() {
            switch argument {
            case "--runs":
                guard let value = arguments.popFirst().flatMap(Int.init), value > 0 else { return usage() }
                options.runs = value
            case "--filter":
                guard let value = arguments.popFirst() else { return usage() }
                options.filter = value
            case "--rows":
                guard let value = arguments.popFirst() else { return usage() }
                options.rowFilter = value
            case "--frame":
                let parts = arguments.popFirst()?.split(separator: "x").compactMap { Int($0) } ?? []
                guard parts.count == 2, parts.allSatisfy({ $0 > 0 }) else { return usage() }
                (options.frameWidth, options.frameHeight) = (parts[0], parts[1])
            case "--input":
                guard let value = arguments.popFirst() else { return usage() }
                options.inputPath = value
            case "--json":
                options.json = true
            case "--threads":
                guard let value = arguments.popFirst().flatMap(Int.init), value > 0 else { return usage() }
                options.threads = value
            default:
                return usage()
            }
        }

        if !options.json {
            print("RawcapBench: median of \(options.runs) runs after a warm-up, \(ProcessorCount.active) processors.")
            print("wall/cpu ms: medians of wall-clock and process CPU time (all threads). MB/s: 16-bit input ÷ median")
            print("wall time. MB/s/core: input ÷ median CPU time; best: input ÷ the shortest CPU time, the figure least")
            print("disturbed by other load on the machine. ratio: MB/s ÷ the reference row's MB/s, both from this run.\n")
        }
        var table: [[String]] = [
            ["group", "benchmark", "wall ms", "cpu ms", "MB/s", "MB/s/core", "best", "ratio", "reference", "note"]
        ]
        for group in groups where options.filter.map({ group.name.contains($0) }) ?? true {
            var speeds: [String: Double] = [:]
            for row in try group.makeRows(options: options)
            where options.rowFilter.map({ row.name.contains($0) }) ?? true {
                row.run()
                var walls: [Double] = []
                var cpus: [Double] = []
                for _ in 0..<options.runs {
                    let time = Stopwatch.measure(row.run)
                    walls.append(time.wall)
                    cpus.append(time.cpu)
                }
                let median = walls.sorted()[walls.count / 2]
                let cpu = cpus.sorted()[cpus.count / 2]
                let bestCPU = cpus.min() ?? cpu
                let speed = Double(row.bytes) / median / 1e6
                speeds[row.name] = speed
                let ratio = row.reference.flatMap { speeds[$0] }.map { format(speed / $0, digits: 3) } ?? "—"
                table.append([
                    group.name, row.name, format(median * 1000, digits: 1), format(cpu * 1000, digits: 1),
                    format(speed, digits: 0), format(Double(row.bytes) / cpu / 1e6, digits: 0),
                    format(Double(row.bytes) / bestCPU / 1e6, digits: 0), ratio,
                    row.reference ?? "", row.note(),
                ])
                progress("\(group.name): \(row.name): \(format(median * 1000, digits: 1)) ms")
                if options.json {
                    // One object per row, for scripts (Benchmarks/peers.py): seconds, not milliseconds.
                    let object: [String: Any] = [
                        "group": group.name, "row": row.name, "bytes": row.bytes, "wallSeconds": median,
                        "cpuSeconds": cpu, "runs": options.runs,
                    ]
                    let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
                    print(String(decoding: data, as: UTF8.self))
                }
            }
        }
        if !options.json { printTable(table) }
    }

    /// A progress line on standard error, so the table on standard output stays clean.
    static func progress(_ line: String) {
        var standardError = StandardError()
        print(line, to: &standardError)
    }

    static func usage() {
        print(
            """
            usage: RawcapBench [--runs N] [--filter GROUP] [--rows TEXT] [--threads N] [--frame WxH] [--input FILE]
                               [--json]
              --input FILE  the DNG rows write this raw file's frame (decoded by rawcap, untimed) instead of a
                            synthetic 14-bit RGGB frame
              --json        one JSON object per row instead of the table
            """)
    }

    /// Prints the table with aligned columns (numbers right-aligned).
    static func printTable(_ table: [[String]]) {
        let widths = (0..<table[0].count).map { column in table.map { $0[column].count }.max() ?? 0 }
        var lines: [String] = []
        for (index, row) in table.enumerated() {
            let cells = row.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return (2...7).contains(column) ? padding + cell : cell + padding
            }
            lines.append(cells.joined(separator: "  "))
            if index == 0 { lines.append(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")) }
        }
        print(lines.joined(separator: "\n"))
    }

    static func format(_ value: Double, digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        if digits == 0 { return String(Int(rounded)) }
        var text = String(rounded)
        let decimals = text.split(separator: ".").last.map(\.count) ?? 0
        if decimals < digits { text += String(repeating: "0", count: digits - decimals) }
        return text
    }
}
