/// The first half of ``GPhoto2LogImporter``: finds the hex dumps in a libgphoto2 debug log and checks every dump
/// line, with no knowledge of PTP. Pure: lines in, dumps and diagnostics out.
///
/// A dump starts at a header line that names its size, older libgphoto2's `Hexdump of 12 = 0xc bytes follows:`
/// (its direction from the `Writing …`/`Reading …` line before it) or newer libgphoto2's `(hexdump of 341 bytes)`,
/// `(hexdump of the first 1048576 of 4000000 bytes)` or `(empty hexdump of empty buffer)` at the end of a
/// `gp_port_read`, `gp_port_write`, `gp_port_check_int` or `ptpip/…` line. It goes on for one line per 16 bytes:
///
///     0000  0c 00 00 00 01 00 01 10-01 00 00 00              ............
///
/// Each line must carry exactly the bytes its place in the dump calls for (16, fewer on the last), at the offset
/// that place gives (lines are counted; the four-digit offset wraps at 64 KiB), as pairs of hex digits with one
/// separator, and its ASCII column, when there is one, must render those bytes. A line that breaks any of this is
/// damaged: it is reported with its line number, never repaired, and the dump ends before it (cut). Lines that look
/// like pieces of dump lines but have no offset (a wrapped line's tail) are damaged too. Runs of spaces squeezed to
/// one, CRLF line ends, leading blanks, `>` quoting and Markdown fences are read through; any other text between
/// lines is ignored, except inside a dump, where it ends the dump (cut).
struct GPhoto2LogScanner {
    /// Where a dump's bytes went.
    enum Channel: Sendable, Hashable {
        /// USB bulk OUT (`gp_port_write`, `Writing … to port`).
        case usbOut
        /// USB bulk IN (`gp_port_read`, `Reading … from port`).
        case usbIn
        /// USB interrupt IN (`gp_port_check_int`, `… from interrupt endpoint`).
        case usbInterrupt
        /// PTP/IP, host to camera: whole packets (`ptpip/oprequest`, `ptpip/senddata`, `ptpip/init_cmd`, …).
        case ptpipOut
        /// PTP/IP, camera to host: a packet header (`ptpip/generic_read header:`).
        case ptpipInHeader
        /// PTP/IP, camera to host: (part of) a packet's payload (`ptpip/generic_read data:`).
        case ptpipInData
        /// A dump with no header line (libgphoto2 2.4 prints none): the framer tells its direction by its bytes.
        case usbUnknown
    }

    /// One dump, as far as the log holds it.
    struct Dump: Sendable, Hashable {
        var channel: Channel
        /// The header line (1-based).
        var line: Int
        /// The log's timestamp of the header line, in nanoseconds.
        var time: UInt64
        /// The bytes the transfer carried, as the header says.
        var announced: Int
        /// The bytes the log holds, in order from the first.
        var bytes: [UInt8] = []
        /// Whether the dump had no header line (its size is then what its lines hold).
        var headerless = false
        /// Why the log holds fewer than ``announced`` bytes.
        var cut: String?
    }

    /// A dump, or a `#GAP` line (a corpus excerpt's mark for text that was not read).
    enum Item: Sendable, Hashable {
        case dump(Dump)
        case gap(line: Int)
    }

    private(set) var items: [Item] = []
    private(set) var diagnostics: [GPhoto2LogImporter.Diagnostic] = []
    private(set) var format: GPhoto2LogImporter.Format = .unknown
    private(set) var libgphoto2Version: String?
    private(set) var damagedLineCount = 0

    private enum State {
        case outside
        /// Collecting a dump's lines: the dump, how many bytes the log shows (all, or the first 1 MiB), the index
        /// of the next line.
        case collecting(Dump, shown: Int, lineIndex: Int)
        /// Skipping the rest of a dump after a damaged line.
        case skipping
        /// Skipping dump lines that have no header.
        case orphan
    }

    private var state = State.outside
    private var lastAnnouncement: Channel?
    private var lastTime: UInt64 = 0

    /// Scans `text`.
    init(text: String) {
        var number = 0
        for raw in text.utf8.split(separator: 10, omittingEmptySubsequences: false) {
            number += 1
            scan(Self.normalized(Array(raw)), number)
        }
        finishDump(atEnd: true, number + 1)
    }

    // MARK: Lines

    /// The line without its CR, leading blanks and `>` quoting.
    static func normalized(_ line: [UInt8]) -> [UInt8] {
        var start = 0
        var end = line.count
        while end > start, line[end - 1] == 13 || line[end - 1] == 32 || line[end - 1] == 9 { end -= 1 }
        while start < end {
            if line[start] == 32 || line[start] == 9 {
                start += 1
            } else if line[start] == UInt8(ascii: ">"), start + 1 < end, line[start + 1] == 32 {
                start += 2
            } else {
                break
            }
        }
        return Array(line[start..<end])
    }

    private mutating func scan(_ line: [UInt8], _ number: Int) {
        switch state {
        case .collecting(var dump, let shown, let lineIndex):
            if line.isEmpty { return }
            if dump.headerless, let offset = Self.dumpLineOffset(line) {
                // A new dump starts at 0000; a dump without header ends at its first short line.
                if !dump.bytes.isEmpty, offset == 0 || dump.bytes.count % 16 != 0 {
                    items.append(.dump(dump))
                    state = .outside
                    scan(line, number)
                    return
                }
            }
            if Self.dumpLineOffset(line) != nil || Self.isFragment(line) {
                let expected = dump.headerless ? nil : min(16, shown - lineIndex * 16)
                switch Self.parseDumpLine(line, expected: expected, offset: (lineIndex * 16) & 0xFFFF) {
                case .success(let bytes):
                    dump.bytes += bytes
                    if dump.bytes.count >= shown {
                        if shown < dump.announced {
                            dump.cut = "the log dumps the first \(shown) of \(dump.announced) bytes"
                        }
                        items.append(.dump(dump))
                        state = .outside
                    } else {
                        state = .collecting(dump, shown: shown, lineIndex: lineIndex + 1)
                    }
                case .failure(let reason):
                    damaged(number, reason)
                    dump.cut = "damaged dump line \(number)"
                    items.append(.dump(dump))
                    state = .skipping
                }
                return
            }
            if dump.headerless {
                items.append(.dump(dump))
                state = .outside
                scan(line, number)
                return
            }
            finishDump(atEnd: false, number)
            scan(line, number)
        case .skipping:
            if line.isEmpty || Self.dumpLineOffset(line) != nil || Self.isFragment(line) { return }
            state = .outside
            scan(line, number)
        case .orphan:
            if line.isEmpty || Self.dumpLineOffset(line) != nil || Self.isFragment(line) { return }
            state = .outside
            scan(line, number)
        case .outside:
            if line.isEmpty { return }
            if line.starts(with: Array("#GAP".utf8)) {
                items.append(.gap(line: number))
                return
            }
            if Self.dumpLineOffset(line) == 0 {
                // libgphoto2 2.4 prints dumps without a header line.
                state = .collecting(
                    Dump(channel: .usbUnknown, line: number, time: lastTime, announced: 0, headerless: true),
                    shown: Int.max, lineIndex: 0)
                scan(line, number)
                return
            }
            if Self.dumpLineOffset(line) != nil || Self.isFragment(line) {
                diagnostics.append(
                    .init(
                        line: number, kind: .orphanDump,
                        "dump lines without a dump header before them (the excerpt starts inside a dump, or its "
                            + "header is damaged); not used"))
                state = .orphan
                return
            }
            logLine(line, number)
        }
    }

    private mutating func damaged(_ number: Int, _ reason: String) {
        damagedLineCount += 1
        diagnostics.append(.init(line: number, kind: .damagedLine, reason))
    }

    /// Ends the dump being collected when a line that is not a dump line comes before its last byte.
    private mutating func finishDump(atEnd: Bool, _ number: Int) {
        guard case .collecting(var dump, let shown, _) = state else { return }
        if dump.headerless {
            items.append(.dump(dump))
            state = .outside
            return
        }
        dump.cut =
            atEnd
            ? "the log ends after \(dump.bytes.count) of the dump's \(shown) bytes"
            : "the dump stops after \(dump.bytes.count) of \(shown) bytes (line \(number))"
        diagnostics.append(.init(line: dump.line, kind: .cutDump, "dump of \(dump.announced) bytes: \(dump.cut ?? "")"))
        items.append(.dump(dump))
        state = .outside
    }

    /// A log line: a dump header, an announcement (older format), the library version; anything else is ignored.
    private mutating func logLine(_ line: [UInt8], _ number: Int) {
        // Pasted logs sometimes lost the timestamps: such a line still counts, at the last time seen.
        let (time, rest) = Self.timestamp(line) ?? (lastTime, line[...])
        lastTime = time
        let text = String(decoding: rest, as: UTF8.self)
        if libgphoto2Version == nil, let version = Self.version(in: text) { libgphoto2Version = version }
        if let range = text.firstRange(of: "Hexdump of ") {
            format = .old
            guard let size = Self.leadingInteger(text[range.upperBound...]) else { return }
            let channel = lastAnnouncement ?? .usbIn
            start(Dump(channel: channel, line: number, time: time, announced: size), shown: size)
            return
        }
        if text.contains("(empty hexdump of empty buffer)") {
            format = .new
            if let channel = Self.newFormatChannel(text) {
                items.append(.dump(Dump(channel: channel, line: number, time: time, announced: 0)))
            }
            return
        }
        if let range = text.firstRange(of: "(hexdump of ") {
            format = .new
            var tail = text[range.upperBound...]
            var shown: Int?
            if tail.hasPrefix("the first ") {
                tail = tail.dropFirst("the first ".count)
                shown = Self.leadingInteger(tail)
                guard let of = tail.firstRange(of: " of ") else { return }
                tail = tail[of.upperBound...]
            }
            guard let size = Self.leadingInteger(tail) else { return }
            guard let channel = Self.newFormatChannel(text) else {
                diagnostics.append(
                    .init(line: number, kind: .ignored, "a dump on a channel the importer does not know; not used"))
                state = .skipping
                return
            }
            start(Dump(channel: channel, line: number, time: time, announced: size), shown: min(size, shown ?? size))
            return
        }
        // Older format: the dump header says nothing of direction; the announcement before it does.
        if text.contains("Writing "), text.contains("to port") {
            lastAnnouncement = .usbOut
        } else if text.contains("Reading "), text.contains("interrupt") {
            lastAnnouncement = .usbInterrupt
        } else if text.contains("Reading "), text.contains("from port") {
            lastAnnouncement = .usbIn
        }
    }

    private mutating func start(_ dump: Dump, shown: Int) {
        if shown <= 0 {
            items.append(.dump(dump))
        } else {
            state = .collecting(dump, shown: shown, lineIndex: 0)
        }
    }

    private static func newFormatChannel(_ text: String) -> Channel? {
        if text.contains("ptpip/generic_read header") { return .ptpipInHeader }
        if text.contains("ptpip/generic_read data") { return .ptpipInData }
        for out in ["ptpip/oprequest", "ptpip/senddata", "ptpip/init_cmd", "ptpip/init_event"] where text.contains(out)
        {
            return .ptpipOut
        }
        if text.contains("ptpip") { return nil }
        if text.contains("gp_port_check_int") || text.contains("interrupt endpoint") { return .usbInterrupt }
        if text.contains("gp_port_write") || text.contains("Wrote ") { return .usbOut }
        if text.contains("gp_port_read") || text.contains("Read ") { return .usbIn }
        return nil
    }

    /// `0.197684 rest` → (nanoseconds, rest).
    static func timestamp(_ line: [UInt8]) -> (UInt64, ArraySlice<UInt8>)? {
        var index = 0
        var seconds: UInt64 = 0
        // At most 10 digits of seconds, so that the nanoseconds fit in 64 bits.
        while index < line.count, let digit = decimal(line[index]), index < 10 {
            seconds = seconds * 10 + UInt64(digit)
            index += 1
        }
        guard index > 0, index < line.count, line[index] == UInt8(ascii: ".") else { return nil }
        index += 1
        var fraction: UInt64 = 0
        var digits = 0
        while index < line.count, let digit = decimal(line[index]) {
            if digits < 9 {
                fraction = fraction * 10 + UInt64(digit)
                digits += 1
            }
            index += 1
        }
        guard digits > 0, index < line.count, line[index] == 32 else { return nil }
        for _ in digits..<9 { fraction *= 10 }
        return (seconds * 1_000_000_000 + fraction, line[(index + 1)...])
    }

    private static func version(in text: String) -> String? {
        guard let range = text.firstRange(of: "libgphoto2 ") else { return nil }
        let token = text[range.upperBound...].prefix { $0.isNumber || $0 == "." }
        return token.first?.isNumber == true && token.contains(".") ? String(token) : nil
    }

    private static func leadingInteger(_ text: Substring) -> Int? {
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 15 else { return nil }
        return Int(digits)
    }

    // MARK: Dump lines

    static func decimal(_ byte: UInt8) -> UInt8? { byte >= 48 && byte <= 57 ? byte - 48 : nil }

    static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 48...57: byte - 48
        case 97...102: byte - 87
        case 65...70: byte - 55
        default: nil
        }
    }

    /// The offset of a line that starts like a dump line (four hex digits, blanks, a hex pair), else `nil`.
    static func dumpLineOffset(_ line: [UInt8]) -> Int? {
        guard line.count >= 7 else { return nil }
        var offset = 0
        for index in 0..<4 {
            guard let digit = hex(line[index]) else { return nil }
            offset = offset << 4 | Int(digit)
        }
        var index = 4
        guard line[index] == 32 || line[index] == 9 else { return nil }
        while index < line.count, line[index] == 32 || line[index] == 9 { index += 1 }
        guard index + 1 < line.count, hex(line[index]) != nil, hex(line[index + 1]) != nil else { return nil }
        guard index + 2 == line.count || line[index + 2] == 32 || line[index + 2] == UInt8(ascii: "-") else {
            return nil
        }
        return offset
    }

    /// Whether the line starts with three hex pairs and no offset: the tail of a wrapped dump line.
    static func isFragment(_ line: [UInt8]) -> Bool {
        guard line.count >= 9 else { return false }
        for pair in 0..<3 {
            let index = pair * 3
            guard hex(line[index]) != nil, hex(line[index + 1]) != nil else { return false }
            guard line[index + 2] == 32 || line[index + 2] == UInt8(ascii: "-") else { return false }
        }
        return true
    }

    enum LineResult {
        case success([UInt8])
        case failure(String)
    }

    /// Reads `expected` bytes from a dump line that must be at `offset` (see the type's description).
    static func parseDumpLine(_ line: [UInt8], expected: Int?, offset: Int) -> LineResult {
        guard let expected else {
            // A dump without header: as many bytes as the line holds (at most 16), the ASCII column deciding
            // where the bytes end when squeezed spaces leave it in doubt.
            let available = pairCount(line)
            guard available > 0 else { return .failure("no hex bytes on a dump line") }
            var lastFailure = "no hex bytes on a dump line"
            for count in stride(from: min(16, available), through: 1, by: -1) {
                switch parseDumpLine(line, expected: count, offset: offset) {
                case .success(let bytes): return .success(bytes)
                case .failure(let reason): if count == min(16, available) { lastFailure = reason }
                }
            }
            return .failure(lastFailure)
        }
        guard let found = dumpLineOffset(line) else {
            return .failure("a piece of a dump line without its offset (a wrapped or split line)")
        }
        guard found == offset else {
            return .failure(
                "dump line at offset \(hex4(found)) where \(hex4(offset)) comes next (a line is missing or doubled)")
        }
        var index = 4
        while index < line.count, line[index] == 32 || line[index] == 9 { index += 1 }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(expected)
        while bytes.count < expected {
            guard index + 1 < line.count, let high = hex(line[index]), let low = hex(line[index + 1]) else {
                if index < line.count,
                    hex(line[index]) == nil || index + 1 >= line.count || hex(line[index + 1]) == nil,
                    bytes.count > 0, index < line.count, !(line[index] == 32 || line[index] == UInt8(ascii: "-"))
                {
                    return .failure("not a hex byte at column \(index + 1): \(bytes.count) of \(expected) bytes read")
                }
                return .failure("\(bytes.count) bytes where the dump needs \(expected) on this line")
            }
            bytes.append(high << 4 | low)
            index += 2
            if bytes.count < expected {
                guard index < line.count, line[index] == 32 || line[index] == UInt8(ascii: "-") else {
                    return .failure("not a hex byte at column \(index + 1): \(bytes.count) of \(expected) bytes read")
                }
                index += 1
            }
        }
        guard index == line.count || line[index] == 32 || line[index] == 9 || line[index] == UInt8(ascii: "-")
        else {
            return .failure("more than the \(expected) bytes the dump needs on this line (joined lines?)")
        }
        let rest = Array(line[index...])
        guard asciiColumnMatches(rest, bytes) else {
            return .failure("the ASCII column does not render the line's \(expected) bytes (a joined or edited line)")
        }
        return .success(bytes)
    }

    /// How many hex pairs, each followed by a blank, a dash or the end, follow a dump line's offset.
    static func pairCount(_ line: [UInt8]) -> Int {
        var index = 4
        while index < line.count, line[index] == 32 || line[index] == 9 { index += 1 }
        var count = 0
        while index + 1 < line.count, hex(line[index]) != nil, hex(line[index + 1]) != nil,
            index + 2 == line.count || line[index + 2] == 32 || line[index + 2] == UInt8(ascii: "-")
        {
            count += 1
            index += 3
        }
        return count
    }

    /// Whether what follows the bytes is the padding and an ASCII column that renders them (or a prefix of it,
    /// or nothing). Runs of spaces count as one.
    static func asciiColumnMatches(_ rest: [UInt8], _ bytes: [UInt8]) -> Bool {
        let rendered = squeezed(bytes.map { $0 >= 0x20 && $0 < 0x7F ? $0 : UInt8(ascii: ".") })
        var column = squeezed(rest)
        // The padding: blanks and the separator dash of a short line.
        func stripPadding(_ text: [UInt8]) -> [UInt8] {
            var start = 0
            while start < text.count, text[start] == 32 || text[start] == UInt8(ascii: "-") { start += 1 }
            return Array(text[start...])
        }
        while column.last == 32 { column.removeLast() }
        var target = rendered
        while target.last == 32 { target.removeLast() }
        if column.isEmpty || stripPadding(column).isEmpty { return true }
        if column.count >= target.count, Array(column.suffix(target.count)) == target,
            stripPadding(Array(column.dropLast(target.count))).isEmpty
        {
            return true
        }
        let stripped = stripPadding(column)
        return target.starts(with: stripped) || stripPadding(target).starts(with: stripped)
    }

    private static func squeezed(_ text: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        for byte in text {
            let value = byte == 9 ? 32 : byte
            if value == 32, result.last == 32 { continue }
            result.append(value)
        }
        return result
    }

    private static func hex4(_ value: Int) -> String {
        let text = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 4 - text.count)) + text
    }
}
