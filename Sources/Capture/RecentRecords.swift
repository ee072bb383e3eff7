/// The last `limit` records of a run and how many there were in all: what a run's summary keeps of its files and
/// frames, so that a run of any length (a night's time-lapse, `make soak`) holds the same memory at its end as at its
/// start. The journal on disk has every record; the summary needs the totals and, for a short run (every test), all
/// of them.
///
/// A collection of the records kept, oldest first; ``total`` counts every record appended.
public struct RecentRecords<Element: Sendable>: RandomAccessCollection, Sendable {
    /// The records a summary keeps unless told otherwise: more than any test's run, a few hundred kilobytes of
    /// ``SavedFile``s at most.
    public static var defaultLimit: Int { 256 }

    /// How many records are kept (at least 1).
    public let limit: Int
    /// Every record appended, kept or not.
    public private(set) var total = 0
    /// The records kept, in a ring once full: the oldest is at `head`.
    private var storage: [Element] = []
    private var head = 0

    /// An empty log keeping the last `limit` records.
    public init(limit: Int = Self.defaultLimit) {
        self.limit = Swift.max(1, limit)
    }

    /// Appends `record`, dropping the oldest kept one when `limit` are kept.
    public mutating func append(_ record: Element) {
        total += 1
        if storage.count < limit {
            storage.append(record)
        } else {
            storage[head] = record
            head = (head + 1) % limit
        }
    }

    /// Appends each of `records` in order.
    public mutating func append(contentsOf records: some Sequence<Element>) {
        for record in records { append(record) }
    }

    /// Appends `records` to `log`.
    public static func += (log: inout Self, records: some Sequence<Element>) { log.append(contentsOf: records) }

    /// Records were dropped: the log holds only the last ``limit`` of ``total``.
    public var isTruncated: Bool { total > storage.count }

    public var startIndex: Int { 0 }
    public var endIndex: Int { storage.count }
    public subscript(position: Int) -> Element {
        precondition(position >= 0 && position < storage.count, "RecentRecords index out of range")
        return storage[(head + position) % storage.count]
    }
}

extension RecentRecords: ExpressibleByArrayLiteral {
    /// A log holding `elements` (the last ``defaultLimit`` of them).
    public init(arrayLiteral elements: Element...) {
        self.init()
        append(contentsOf: elements)
    }
}

extension RecentRecords: Equatable where Element: Equatable {
    /// The same records kept and the same total.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.total == rhs.total && lhs.elementsEqual(rhs)
    }
}
