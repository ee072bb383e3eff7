import Foundation

/// Reads a real body's facts file (`Sources/CameraEmulator/*Facts.swift`) as text, independently of the emulator's
/// own parsing: its `static let NAME = RealBodyFacts.codes(…)` lists and its property lines.
struct RealBodyFactsReader {
    let source: String

    init(_ file: String) throws {
        source = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("Sources/CameraEmulator/\(file)"),
            encoding: .utf8)
    }

    /// The hexadecimal codes of the list `name` (`static let name = RealBodyFacts.codes(…)` or `[0x…]`).
    func codes(_ name: String) -> [UInt16] {
        guard let start = source.range(of: "static let \(name)") else { return [] }
        let rest = source[start.upperBound...]
        let end = [rest.range(of: ")\n"), rest.range(of: "]\n")].compactMap { $0?.lowerBound }.min()!
        return rest[..<end].split(whereSeparator: { " \n\"[],(".contains($0) }).compactMap {
            $0.hasPrefix("0x") ? UInt16($0.dropFirst(2), radix: 16) : nil
        }
    }

    /// The string constant `name`.
    func string(_ name: String) -> String? {
        guard let start = source.range(of: "static let \(name) = \"") else { return nil }
        let rest = source[start.upperBound...]
        return String(rest[..<rest.firstIndex(of: "\"")!])
    }

    /// The property lines (`0xCODE TYPE ACCESS FORM … = CURRENT`) of the `text` block: code and line.
    var propertyLines: [(code: UInt16, line: String)] {
        guard let start = source.range(of: "static let text = \"\"\"\n") else { return [] }
        let rest = source[start.upperBound...]
        return rest[..<rest.range(of: "\"\"\"")!.lowerBound].split(separator: "\n").compactMap { line in
            let trimmed = line.drop { $0 == " " }
            guard trimmed.hasPrefix("0x"), let code = UInt16(trimmed.prefix(6).dropFirst(2), radix: 16) else {
                return nil
            }
            return (code, String(trimmed))
        }
    }
}
