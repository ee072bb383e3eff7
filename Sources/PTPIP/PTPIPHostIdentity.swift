import FoundationEssentials
import Logging
import PTP
import PlatformSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The GUID and friendly name rawcap sends in Init Command Request: stable per host, because cameras pair on the
/// GUID (Canon and Nikon ask the user to confirm a new initiator once; PTP notes §2.8).
///
/// ``load(environment:logger:)`` reads the GUID from `$XDG_CONFIG_HOME/rawcap/ptpip-guid` (or
/// `~/.config/rawcap/ptpip-guid`), creating it with 16 random bytes the first time, as libgphoto2 does with
/// `~/.gphoto/settings`. When that folder cannot be written (a read-only home, a sandbox), the GUID is derived
/// from the machine ID (`/etc/machine-id`), which is just as stable; only when neither exists is it random for
/// this run, with a warning. The friendly name is the host name (`gethostname`), as libgphoto2 sends.
public struct PTPIPHostIdentity: Sendable, Hashable {
    /// Where the GUID came from.
    public enum Source: Sendable, Hashable {
        /// Read from the settings file at this path.
        case settingsFile(String)
        /// Created now and saved to the settings file at this path.
        case createdSettingsFile(String)
        /// Derived from the machine ID, because the settings file could not be written.
        case machineID
        /// Random for this run only: no settings file and no machine ID.
        case ephemeral
    }

    /// The name of the file under the rawcap configuration folder.
    public static let fileName = "ptpip-guid"

    /// The initiator's GUID.
    public var guid: PTPIPGUID
    /// The initiator's name.
    public var friendlyName: String
    /// Where ``guid`` came from.
    public var source: Source

    /// Creates an identity.
    public init(guid: PTPIPGUID, friendlyName: String, source: Source) {
        (self.guid, self.friendlyName, self.source) = (guid, friendlyName, source)
    }

    /// What ``PTP/PTPIPTransport/connect(command:openEventStream:identity:timeout:logger:configuration:)`` sends.
    public var transportIdentity: PTPIPTransport.Identity {
        PTPIPTransport.Identity(guid: guid, friendlyName: friendlyName)
    }

    /// Loads (or creates) this host's identity; see the type's description for the fallbacks.
    ///
    /// - Parameters:
    ///   - environment: `XDG_CONFIG_HOME` and `HOME` are read from here (the process environment by default).
    ///   - machineIDPaths: files holding the machine ID, first match wins.
    public static func load(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        machineIDPaths: [String] = ["/etc/machine-id", "/var/lib/dbus/machine-id"],
        logger: Logger = Logger(label: "rawcap.ptpip")
    ) -> PTPIPHostIdentity {
        let name = hostName()
        if let folder = configurationFolder(environment) {
            let path = folder + "/" + fileName
            if let text = try? String(contentsOfFile: path, encoding: .utf8) {
                if let guid = parse(text) {
                    return PTPIPHostIdentity(guid: guid, friendlyName: name, source: .settingsFile(path))
                }
                logger.warning("ignoring \(path): it does not hold 32 hex digits; writing a new GUID")
            }
            let guid = PTPIPGUID.random()
            do {
                try save(guid, to: path, folder: folder)
                logger.info("created PTP/IP initiator GUID \(guid) in \(path)")
                return PTPIPHostIdentity(guid: guid, friendlyName: name, source: .createdSettingsFile(path))
            } catch {
                let reason = SystemErrorText.reason(error)
                logger.notice("cannot save the PTP/IP GUID to \(path) (\(reason)); deriving it from the machine ID")
            }
        }
        for path in machineIDPaths {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
            let machineID = text.trimmingWhitespaceAndNewlines()
            if !machineID.isEmpty {
                return PTPIPHostIdentity(
                    guid: derivedGUID(machineID: machineID), friendlyName: name, source: .machineID)
            }
        }
        logger.warning("no configuration folder and no machine ID: using a random PTP/IP GUID for this run only")
        return PTPIPHostIdentity(guid: .random(), friendlyName: name, source: .ephemeral)
    }

    /// `$XDG_CONFIG_HOME/rawcap`, else `$HOME/.config/rawcap`; `nil` without either.
    public static func configurationFolder(_ environment: [String: String]) -> String? {
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") { return xdg + "/rawcap" }
        if let home = environment["HOME"], !home.isEmpty { return home + "/.config/rawcap" }
        return nil
    }

    /// A GUID derived from the machine ID: the same on every run, different per machine, and not the machine ID
    /// itself (which systemd asks programs not to expose). Two 64-bit FNV-1a hashes with different seeds, marked
    /// as an RFC 9562 version 8 (custom) UUID.
    public static func derivedGUID(machineID: String) -> PTPIPGUID {
        func fnv1a(_ seed: UInt64) -> UInt64 {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ seed
            for byte in "rawcap PTP/IP initiator \(machineID)".utf8 {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            }
            return hash
        }
        var bytes =
            withUnsafeBytes(of: fnv1a(1).bigEndian) { Array($0) }
            + withUnsafeBytes(of: fnv1a(2).bigEndian) { Array($0) }
        bytes[6] = (bytes[6] & 0x0F) | 0x80
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return PTPIPGUID(bytes) ?? .random()
    }

    /// The host name, as libgphoto2 sends it; `rawcap` when it cannot be read.
    public static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "rawcap" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? "rawcap" : name
    }

    private static func parse(_ text: String) -> PTPIPGUID? {
        let hex = text.trimmingWhitespaceAndNewlines().replacing("-", with: "")
        guard hex.count == 32 else { return nil }
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return PTPIPGUID(bytes)
    }

    /// Writes the GUID as 32 hex digits: to a temporary name in the folder, then renamed, so a crash never
    /// leaves a half-written file that would change the GUID.
    private static func save(_ guid: PTPIPGUID, to path: String, folder: String) throws {
        try FileManager.default.createDirectory(
            atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let text = guid.bytes.map { String(cFormat: "%02x", $0) }.joined() + "\n"
        let temporary = folder + "/.\(fileName).\(getpid()).tmp"
        try Data(text.utf8).write(to: URL(fileURLWithPath: temporary))
        guard rename(temporary, path) == 0 else {
            let error = POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            try? FileManager.default.removeItem(atPath: temporary)
            throw error
        }
    }
}
