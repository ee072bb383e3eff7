/// One `NAME=VALUE` from the command line: `iso=400`, `shutter=1/125`, `0x5005=2`.
public struct PropertyAssignment: Hashable, Sendable, CustomStringConvertible {
    /// The setting's name or hex code, as typed.
    public var name: String
    /// The value, as typed.
    public var value: String

    /// Creates an assignment.
    public init(name: String, value: String) { (self.name, self.value) = (name, value) }

    /// Splits `text` at its first `=`.
    ///
    /// - Throws: ``CameraControlError/Code/malformedAssignment`` without an `=`, or with nothing before it.
    public init(parsing text: String) throws(CameraControlError) {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
            throw CameraControlError(.malformedAssignment, "\"\(text)\" is not NAME=VALUE (iso=400, shutter=1/125)")
        }
        name = text[..<equals].trimmingWhitespace
        value = String(text[text.index(after: equals)...])
        guard !name.isEmpty else {
            throw CameraControlError(.malformedAssignment, "\"\(text)\" has no name before =")
        }
    }

    /// Parses each of `texts`.
    public static func parse(_ texts: [String]) throws(CameraControlError) -> [PropertyAssignment] {
        var result: [PropertyAssignment] = []
        for text in texts { result.append(try PropertyAssignment(parsing: text)) }
        return result
    }

    /// `name=value`.
    public var description: String { "\(name)=\(value)" }
}
