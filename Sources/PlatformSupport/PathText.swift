/// Path text as Foundation's `NSString` path methods give it (FoundationEssentials has `URL`'s, but not these).
public enum PathText {
    /// `NSString.deletingLastPathComponent`: runs of slashes count as one and a trailing slash is dropped first;
    /// `""` for a single relative component, `/` for a single absolute one. (Foundation's own trapped on a name of
    /// one UTF-16 unit, such as `x`, and could keep a doubled slash or trap after a run of slashes; this does not.)
    public static func deletingLastPathComponent(_ path: String) -> String {
        let fixed = fixingSlashes(path)
        if fixed == "/" || fixed.isEmpty { return fixed }
        guard let lastSlash = fixed.lastIndex(of: "/") else { return "" }
        if lastSlash == fixed.startIndex { return "/" }
        return String(fixed[..<lastSlash])
    }

    /// NSString's `_stringByFixingSlashes()`: `/` stays; runs of slashes become one, then one trailing slash goes
    /// (so `//` becomes empty, as with Foundation).
    private static func fixingSlashes(_ path: String) -> String {
        if path == "/" { return path }
        var result = ""
        var previousWasSlash = false
        for character in path {
            let isSlash = character == "/"
            if !(isSlash && previousWasSlash) { result.append(character) }
            previousWasSlash = isSlash
        }
        if result.hasSuffix("/") { result.removeLast() }
        return result
    }
}
