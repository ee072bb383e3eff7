import Foundation
import TestSupport

/// A fixture file in rawcap's hex format: records of hex bytes separated by blank lines, `#` comment lines.
struct Fixture {
    /// One record: its own comment lines and its bytes.
    struct Record {
        var comments: [String]
        var bytes: [UInt8]
    }

    /// The comment lines before the first record.
    var header: [String]
    /// The records, in file order.
    var records: [Record]

    /// Loads `Fixtures/<path>` from the package root.
    init(_ path: String) throws {
        let url = ExternalTool.packageRoot.appendingPathComponent("Fixtures").appendingPathComponent(path)
        let text = try String(contentsOf: url, encoding: .utf8)
        var header: [String] = []
        var records: [Record] = []
        var current: Record?
        var seenBlank = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty {
                if let record = current, !record.bytes.isEmpty { records.append(record) }
                current = nil
                seenBlank = true
                continue
            }
            if trimmed.hasPrefix("#") {
                if !seenBlank {
                    header.append(trimmed)
                } else {
                    current = current ?? Record(comments: [], bytes: []); current?.comments.append(trimmed)
                }
                continue
            }
            current = current ?? Record(comments: [], bytes: [])
            for token in trimmed.split(separator: " ") {
                guard let byte = UInt8(token, radix: 16) else {
                    throw FixtureError(message: "bad hex \(token) in \(path)")
                }
                current?.bytes.append(byte)
            }
        }
        if let record = current, !record.bytes.isEmpty { records.append(record) }
        self.header = header
        self.records = records
    }
}

struct FixtureError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// Parses annotated hex written in a test: `"64 00  // StandardVersion"` lines; `//` comments are ignored.
func hexBytes(_ text: String) -> [UInt8] {
    var bytes: [UInt8] = []
    for line in text.split(separator: "\n") {
        let code = line.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        for token in code.split(whereSeparator: { $0 == " " || $0 == "," }) {
            if let byte = UInt8(token, radix: 16) { bytes.append(byte) }
        }
    }
    return bytes
}
