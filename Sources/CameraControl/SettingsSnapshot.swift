import PTP

/// The values of a set of properties at one moment, to put back later with ``CameraSettings/restore(_:)``: a
/// bracket changes the exposure and puts it back afterwards, after an error too.
public struct SettingsSnapshot: Hashable, Sendable {
    /// One saved property.
    public struct Entry: Hashable, Sendable {
        /// The setting.
        public var definition: PropertyDefinition
        /// The value it had.
        public var value: PTPValue

        /// Creates an entry.
        public init(definition: PropertyDefinition, value: PTPValue) {
            (self.definition, self.value) = (definition, value)
        }
    }

    /// The saved properties, in the order they were read (and are restored).
    public var entries: [Entry]

    /// Creates a snapshot.
    public init(entries: [Entry]) { self.entries = entries }

    /// The saved value of the setting with `code`.
    public func value(of code: DevicePropertyCode) -> PTPValue? { entries.first { $0.definition.code == code }?.value }
}
