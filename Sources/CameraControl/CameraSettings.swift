import Logging
import PTP
import WireFormat

/// Camera settings by readable name over an open ``PTP/PTPSession``: list, get and set with values checked against
/// the camera's own DevicePropDesc, and snapshots to restore.
///
/// ```swift
/// try await session.openSession()
/// let settings = try await CameraSettings.load(session: session)
/// try await settings.set([PropertyAssignment(name: "iso", value: "400"), .init(name: "shutter", value: "1/125")])
/// let saved = try await settings.snapshot(["iso", "shutter", "ev"])
/// try await settings.preserving(saved) { … }   // restored afterwards, after an error too
/// ```
///
/// Every read asks the camera (GetDevicePropDesc), so values are never stale. Camera refusals become
/// ``CameraControlError``; link failures pass through as the session threw them.
public struct CameraSettings: Sendable {
    /// The session, already opened by the caller.
    public let session: PTPSession
    /// The camera's DeviceInfo: its vendor and the properties it lists.
    public let deviceInfo: DeviceInfo
    /// The names in use.
    public let catalog: PropertyCatalog
    let logger: Logger

    /// Wraps a session whose DeviceInfo is known.
    public init(
        session: PTPSession, deviceInfo: DeviceInfo, catalog: PropertyCatalog = .standard,
        logger: Logger = Logger(label: "rawcap.settings")
    ) {
        self.session = session
        self.deviceInfo = deviceInfo
        self.catalog = catalog
        self.logger = logger
    }

    /// Reads the camera's DeviceInfo, with its vendor property list merged in (``PTP/PTPSession/cameraIdentity(usbVendorID:usbProductID:)``:
    /// asked once per session), and wraps the session.
    public static func load(
        session: PTPSession, catalog: PropertyCatalog = .standard, logger: Logger = Logger(label: "rawcap.settings")
    ) async throws -> CameraSettings {
        CameraSettings(
            session: session, deviceInfo: try await session.deviceInfo(), catalog: catalog, logger: logger)
    }

    /// The vendor whose codes the camera speaks.
    public var vendor: VendorExtensionID { deviceInfo.cameraVendor }

    /// Every property the camera lists, by its readable name where the catalog has one, in DeviceInfo order.
    public var supportedDefinitions: [PropertyDefinition] {
        deviceInfo.devicePropertiesSupported.map {
            catalog.definition(for: $0, vendor: vendor) ?? .unnamed($0, vendor: vendor)
        }
    }

    /// The definition `name` selects, checked against DevicePropertiesSupported.
    ///
    /// - Throws: ``CameraControlError/Code/unknownProperty`` for a name nobody knows,
    ///   ``CameraControlError/Code/notSupported`` for a property this camera does not list (naming those it does).
    public func definition(named name: String) throws(CameraControlError) -> PropertyDefinition {
        let definition: PropertyDefinition
        do {
            definition = try catalog.definition(named: name, vendor: vendor)
        } catch {
            // Offer only what this camera has, by name; the codes without one are counted, not listed (a Nikon has
            // hundreds).
            throw CameraControlError(
                .unknownProperty, property: name, error.detail + namelessNote, allowed: namedSupportedSettings)
        }
        guard deviceInfo.devicePropertiesSupported.contains(definition.code) else {
            throw CameraControlError(
                .notSupported, property: definition.name,
                "this camera does not have the property (\(definition.code.description(vendor: vendor)))"
                    + namelessNote, allowed: namedSupportedSettings)
        }
        return definition
    }

    /// The readable names of the properties this camera lists.
    private var namedSupportedSettings: [String] {
        supportedDefinitions.map(\.name).filter { !$0.hasPrefix("0x") }
    }

    /// `; 241 more by code (rawcap config list shows them)` when the camera lists properties without a name.
    private var namelessNote: String {
        let nameless = supportedDefinitions.count - namedSupportedSettings.count
        return nameless == 0 ? "" : "; \(nameless) more by code only (`rawcap config list` shows them)"
    }

    /// The camera's description of `definition`'s property.
    ///
    /// - Throws: ``CameraControlError/Code/refused`` when the camera answers GetDevicePropDesc with an error;
    ///   `WireError` when the description does not decode; transport errors.
    public func descriptor(_ definition: PropertyDefinition) async throws -> DevicePropDesc {
        if usesSonyPropertyOperations { return try await sonyDescriptor(definition) }
        let descriptor: DevicePropDesc
        do {
            descriptor = try await session.getDevicePropDesc(definition.code)
        } catch let error as PTPError where error.code == .deviceResponse {
            throw CameraControlError(
                .refused, property: definition.name,
                "the camera would not describe it (\(error.response?.description(vendor: vendor) ?? "\(error)"))")
        }
        guard descriptor.propertyCode == definition.code else {
            throw PTPError(
                .inconsistentResponse, operation: .getDevicePropDesc,
                "asked for \(definition.code), described \(descriptor.propertyCode)")
        }
        return descriptor
    }

    /// The state of every property the camera lists; a property the camera will not describe carries its error
    /// and the list goes on.
    public func list() async throws -> [PropertyState] {
        var states: [PropertyState] = []
        for definition in supportedDefinitions {
            states.append(try await state(definition))
        }
        return states
    }

    /// The states of the named settings, in the order asked.
    public func get(_ names: [String]) async throws -> [PropertyState] {
        var states: [PropertyState] = []
        for name in names {
            let definition = try definition(named: name)
            states.append(PropertyState(definition, descriptor: try await descriptor(definition), vendor: vendor))
        }
        return states
    }

    /// Sets each assignment, in order, after checking all of them against the camera's descriptors (so a typo in
    /// the last one changes nothing). Returns the new states, read back from the camera.
    ///
    /// - Throws: ``CameraControlError`` naming the property and listing the allowed values: unknown name, not
    ///   supported, read-only, a value the descriptor does not allow, or one the camera refused.
    @discardableResult
    public func set(_ assignments: [PropertyAssignment]) async throws -> [PropertyState] {
        var planned: [(PropertyDefinition, DevicePropDesc, PTPValue)] = []
        for assignment in assignments {
            let definition = try definition(named: assignment.name)
            let descriptor = try await descriptor(definition)
            guard descriptor.isSettable else {
                throw CameraControlError(
                    .readOnly, property: definition.name,
                    "the camera does not let it be changed (now \(definition.style.format(descriptor.currentValue)))")
            }
            let value: PTPValue
            do {
                value = try definition.style.resolve(assignment.value, descriptor: descriptor)
            } catch {
                throw CameraControlError(error.code, property: definition.name, error.detail, allowed: error.allowed)
            }
            planned.append((definition, descriptor, value))
        }
        var states: [PropertyState] = []
        for (definition, descriptor, value) in planned {
            try await write(definition, value, allowed: definition.style.allowedTexts(descriptor.form))
            let state = try await state(definition)
            // Some cameras answer OK and keep their value (a shutter time in an automatic mode): say so. A clock
            // has moved on (and may add tenths) by the time it is read back.
            if definition.style != .dateTime, let now = state.value, now != definition.style.format(value) {
                logger.warning("\(definition.name): the camera answered OK but kept \(now)")
            }
            states.append(state)
        }
        return states
    }

    /// Sets one property to a wire value (no parsing), checking it against the descriptor's form first.
    public func set(_ definition: PropertyDefinition, to value: PTPValue) async throws {
        let descriptor = try await descriptor(definition)
        let allowed = definition.style.allowedTexts(descriptor.form)
        guard descriptor.isSettable else {
            throw CameraControlError(.readOnly, property: definition.name, "the camera does not let it be changed")
        }
        guard value.dataType == descriptor.dataType, Self.admits(descriptor.form, value) else {
            throw CameraControlError(
                .invalidValue, property: definition.name,
                "\(definition.style.format(value)) is not a value the camera allows", allowed: allowed)
        }
        try await write(definition, value, allowed: allowed)
    }

    /// The current values of the named settings.
    public func snapshot(_ names: [String]) async throws -> SettingsSnapshot {
        var definitions: [PropertyDefinition] = []
        for name in names { definitions.append(try definition(named: name)) }
        return try await snapshot(definitions)
    }

    /// The current values of `definitions`' properties.
    public func snapshot(_ definitions: [PropertyDefinition]) async throws -> SettingsSnapshot {
        var entries: [SettingsSnapshot.Entry] = []
        for definition in definitions {
            entries.append(.init(definition: definition, value: try await descriptor(definition).currentValue))
        }
        return SettingsSnapshot(entries: entries)
    }

    /// Puts every saved value back that differs from the camera's current one. Every property is tried even when
    /// one fails.
    ///
    /// - Throws: ``CameraControlError/Code/restoreIncomplete`` naming each property left unrestored and why; a
    ///   transport failure (the camera is gone) ends the restore at once.
    public func restore(_ snapshot: SettingsSnapshot) async throws {
        var failures: [String] = []
        for entry in snapshot.entries {
            do {
                let current = try await descriptor(entry.definition).currentValue
                guard current != entry.value else { continue }
                try await writeValue(entry.definition.code, entry.value)
                logger.debug("restored \(entry.definition.name)=\(entry.definition.style.format(entry.value))")
            } catch let error as CameraControlError {
                failures.append("\(entry.definition.name) (\(error.detail))")
            } catch let error as PTPError where error.code == .deviceResponse {
                failures.append(
                    "\(entry.definition.name) (\(error.response?.description(vendor: vendor) ?? "refused"))")
            }
        }
        guard failures.isEmpty else {
            throw CameraControlError(
                .restoreIncomplete, "settings not restored: " + failures.joined(separator: ", "))
        }
    }

    /// Runs `body`, then restores `snapshot` whether `body` succeeded or threw, also when the task was cancelled
    /// (Ctrl-C): the restore runs in a task of its own, which the caller's cancellation does not reach. An error from
    /// `body` wins over one from the restore (which is logged); a restore failure after success is thrown.
    public func preserving<T: Sendable>(_ snapshot: SettingsSnapshot, _ body: () async throws -> T) async throws -> T {
        let result: T
        do {
            result = try await body()
        } catch {
            do {
                try await restoreUncancelled(snapshot)
            } catch let restoreError {
                logger.warning("after \(error): \(restoreError)")
            }
            throw error
        }
        try await restoreUncancelled(snapshot)
        return result
    }

    private func restoreUncancelled(_ snapshot: SettingsSnapshot) async throws {
        try await Task { try await self.restore(snapshot) }.value
    }

    // MARK: Private

    private func state(_ definition: PropertyDefinition) async throws -> PropertyState {
        do {
            return PropertyState(definition, descriptor: try await descriptor(definition), vendor: vendor)
        } catch let error as CameraControlError {
            return PropertyState(definition, error: error.detail, vendor: vendor)
        } catch let error as WireError {
            return PropertyState(definition, error: "unreadable description: \(error)", vendor: vendor)
        }
    }

    private func write(_ definition: PropertyDefinition, _ value: PTPValue, allowed: [String]) async throws {
        do {
            try await writeValue(definition.code, value)
            logger.debug("set \(definition.name)=\(definition.style.format(value))")
        } catch let error as PTPError where error.code == .deviceResponse {
            let response = error.response?.description(vendor: vendor) ?? "\(error)"
            throw CameraControlError(
                .refused, property: definition.name,
                "the camera refused \(definition.style.format(value)) (\(response))", allowed: allowed)
        }
    }

    /// Whether `form` admits `value` (an enumeration member, or within a range on its step grid).
    static func admits(_ form: DevicePropDesc.Form, _ value: PTPValue) -> Bool {
        switch form {
        case .none: return true
        case .enumeration(let values): return values.contains(value)
        case .range(let minimum, let maximum, let step):
            guard let number = value.integerValue, let low = minimum.integerValue, let high = maximum.integerValue
            else { return false }
            guard number >= low, number <= high else { return false }
            let stride = step.integerValue ?? 0
            let (offset, overflow) = number.subtractingReportingOverflow(low)
            return stride <= 0 || (!overflow && offset % stride == 0)
        }
    }
}
