import Foundation
import TestSupport

/// A file in rawcap's hex fixture format (`Fixtures/ptp-real/*.hex`): records of hex bytes separated by blank lines,
/// `#` comment lines, each record's own comments just before it.
struct HexFixture {
    struct Record {
        var comments: [String]
        var bytes: [UInt8]
    }

    var records: [Record] = []

    init(_ path: String) throws {
        let url = ExternalTool.packageRoot.appendingPathComponent("Fixtures").appendingPathComponent(path)
        var current = Record(comments: [], bytes: [])
        var inHeader = true
        for line in try String(contentsOf: url, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.isEmpty {
                inHeader = false
                if !current.bytes.isEmpty { records.append(current) }
                current = Record(comments: [], bytes: [])
            } else if text.hasPrefix("#") {
                if !inHeader { current.comments.append(text) }
            } else {
                for token in text.split(separator: " ") {
                    guard let byte = UInt8(token, radix: 16) else { throw CocoaError(.fileReadCorruptFile) }
                    current.bytes.append(byte)
                }
            }
        }
        if !current.bytes.isEmpty { records.append(current) }
    }
}
