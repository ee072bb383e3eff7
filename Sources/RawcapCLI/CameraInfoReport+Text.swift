extension CameraInfoReport {
    /// The report for people: identity first, then stores, formats, the supported operations and events as
    /// wrapped lists, and a table of properties: by the names and values `config` uses (`aperture  f/8`), or with
    /// `verbose` as the camera sends them (`FNumber  0x5007  800`).
    func text(width: Int = 100, verbose: Bool = false) -> String {
        var lines: [String] = []
        func field(_ label: String, _ value: String) {
            // DeviceInfo strings come from the camera: one line each, no escape sequences.
            lines.append(label.padding(to: 14) + value.oneLine)
        }
        if let camera {
            var place = camera.selector
            if let vendorID = camera.vendorID, let productID = camera.productID {
                place += ", \(vendorID):\(productID)"
            }
            if let port = camera.port { place += ", port \(port)" }
            if let interface = camera.interface, let size = camera.maxPacketSize {
                place += ", \(interface) interface, \(size)-byte packets"
            }
            if let name = camera.friendlyName { place += ", \"\(printable(name))\"" }
            if let mode = camera.replayMode {
                place += ", \(mode) replay" + (camera.recordedModel.map { " of \(printable($0))" } ?? "")
            }
            field("Camera", place)
        }
        field("Manufacturer", printable(device.manufacturer))
        field("Model", printable(device.model))
        field("Version", printable(device.version))
        field("Serial", printable(device.serialNumber))
        let extensionInfo = device.vendorExtension
        var ptp = "\(device.ptpVersion), "
        if extensionInfo.id == "0x00000000" && extensionInfo.description.isEmpty {
            ptp += "no vendor extension"
        } else {
            ptp += "vendor extension \(extensionInfo.name) (\(extensionInfo.id)) \(extensionInfo.version)"
        }
        if !extensionInfo.description.isEmpty { ptp += " \"\(printable(extensionInfo.description))\"" }
        if extensionInfo.cameraVendor != extensionInfo.name { ptp += "; speaks \(extensionInfo.cameraVendor)" }
        field("PTP", ptp)

        lines.append("")
        lines.append("Storage (\(storages.count))")
        if storages.isEmpty { lines.append("  none") }
        for storage in storages {
            if let error = storage.error {
                lines.append("  \(storage.id)  \(error)")
                continue
            }
            var line = "  \(storage.id)  "
            let names = [storage.description, storage.label.map { "\"\($0)\"" }].compactMap { $0 }.filter {
                !$0.isEmpty
            }
            if !names.isEmpty { line += printable(names.joined(separator: " ")) + "  " }
            line += [storage.type, storage.filesystem, storage.access].compactMap { $0 }.joined(separator: ", ")
            if let capacity = storage.capacityBytes, let free = storage.freeBytes {
                line += "  \(byteCount(free)) free of \(byteCount(capacity))"
            }
            if let images = storage.freeImages { line += ", room for \(images) images" }
            lines.append(line)
        }

        lines.append("")
        lines.append("Formats")
        for (label, codes) in [("capture", captureFormats), ("images", imageFormats)] {
            lines.append(
                "  " + label.padding(to: 9)
                    + (codes.isEmpty ? "none listed" : codes.map(\.name).joined(separator: ", ")))
        }

        lines.append("")
        lines.append("Raw formats")
        if rawFormats.isEmpty { lines.append("  none") }
        let formatWidth = rawFormats.map(\.format.rawValue.count).max() ?? 0
        for offer in rawFormats {
            var line = "  " + offer.format.rawValue.padding(to: formatWidth) + "  " + offer.note
            if !offer.settings.isEmpty {
                line += " (" + offer.settings.map { "\($0.name)=\($0.value)" }.joined(separator: " ") + ")"
            }
            lines.append(line)
        }
        if let rawFormatAuto { lines.append("  auto: " + rawFormatAuto.reason) }

        for (title, codes) in [("Operations", operations), ("Events", events)] {
            lines.append("")
            lines.append("\(title) (\(codes.count))")
            lines += wrap(codes.map(\.name), width: width, indent: "  ")
        }

        lines.append("")
        lines.append("Properties (\(properties.count))")
        if verbose || properties.allSatisfy({ $0.readable == nil }) {
            lines += wireTable()
        } else {
            lines += readableTable()
        }
        if !notes.isEmpty {
            lines.append("")
            lines.append("Notes")
            lines += notes.map { "  " + $0 }
        }
        return lines.joined(separator: "\n")
    }
}

extension CameraInfoReport {
    /// One line per property as the camera sends it: PTP name, code, wire value, access, allowed wire values.
    fileprivate func wireTable() -> [String] {
        var lines: [String] = []
        let nameWidth = min(28, properties.map(\.name.count).max() ?? 0)
        let valueWidth = min(24, properties.map { ($0.current?.description ?? "—").count }.max() ?? 0)
        for property in properties {
            var line = "  " + property.name.padding(to: nameWidth) + "  " + property.code + "  "
            if let error = property.error {
                line += "—".padding(to: valueWidth) + "  " + error
            } else {
                line += printable(property.current?.description ?? "—").padding(to: valueWidth)
                line += property.writable == true ? "  read/write" : "  read-only "
                if let allowed = property.allowed { line += "  " + allowed.text }
            }
            lines.append(line)
        }
        return lines
    }

    /// One line per property as `config` names it: setting, value (`f/8`, `1/125 s`, `ISO 400`), access, allowed
    /// values, then the PTP name and code.
    fileprivate func readableTable() -> [String] {
        struct Row {
            var name: String
            var value: String
            var rest: String
        }
        let rows = properties.map { property -> Row in
            let ptp = property.name.hasPrefix("Unknown(") ? property.code : "\(property.name) \(property.code)"
            guard let state = property.readable else {
                // Not described: the camera's name for it, and why.
                let name = property.name.hasPrefix("Unknown(") ? property.code : property.name
                if let error = property.error { return Row(name: name, value: "—", rest: error + "  " + property.code) }
                let access = property.writable == true ? "read/write" : "read-only "
                return Row(
                    name: name, value: property.current?.description ?? "—",
                    rest: access + (property.allowed.map { "  " + $0.text } ?? "") + "  " + property.code)
            }
            let value = Self.shown(state.value, code: property.code)
            var rest = state.writable == true ? "read/write" : "read-only "
            if let range = state.range {
                rest += "  " + range
            } else if !state.allowed.isEmpty {
                let allowed = state.allowed.map { Self.shown($0, code: property.code) }
                let listed =
                    allowed.count <= 12
                    ? allowed : Array(allowed.prefix(6)) + ["…"] + Array(allowed.suffix(2))
                rest += "  one of " + (allowed.count <= 12 ? "" : "\(allowed.count): ") + listed.joined(separator: ", ")
            }
            let tail = state.name == property.code ? (property.name.hasPrefix("Unknown(") ? "" : property.name) : ptp
            return Row(name: state.name, value: value.isEmpty ? "\"\"" : value, rest: rest + "  " + tail)
        }
        let nameWidth = min(18, rows.map(\.name.count).max() ?? 0)
        let valueWidth = min(24, rows.map { printable($0.value).count }.max() ?? 0)
        return rows.map {
            "  " + $0.name.padding(to: nameWidth) + "  " + printable($0.value).padding(to: valueWidth) + "  " + $0.rest
        }
    }

    /// A formatted value with the unit people expect beside it: `1/125 s`, `ISO 400`.
    fileprivate static func shown(_ value: String?, code: String) -> String {
        guard let value else { return "—" }
        let numeric = value.first.map { $0.isNumber } ?? false
        switch code {
        case "0x500D" where numeric: return value + " s"
        case "0x500F" where numeric: return "ISO " + value
        default: return value
        }
    }
}

extension CameraInfoReport.Allowed {
    /// `range 0…100, step 25`, `one of 100, 200, 400`.
    var text: String {
        switch self {
        case .range(let minimum, let maximum, let step):
            return "range \(minimum)…\(maximum), step \(step)"
        case .values(let values):
            let shown =
                values.count <= 12
                ? values.map(\.description)
                : values.prefix(6).map(\.description) + ["…"]
                    + values.suffix(2).map(\.description)
            return "one of \(values.count <= 12 ? "" : "\(values.count): ")" + shown.joined(separator: ", ")
        }
    }
}

extension String {
    /// Pads with spaces to `width` characters (longer strings stay as they are).
    fileprivate func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}

/// Strings from the camera with control characters shown as `?`, so they cannot garble the terminal.
private func printable(_ text: String) -> String {
    String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : $0 }))
}

/// Words joined by commas and wrapped at `width` columns.
private func wrap(_ words: [String], width: Int, indent: String) -> [String] {
    guard !words.isEmpty else { return [indent + "none"] }
    var lines: [String] = []
    var line = indent
    for (index, word) in words.enumerated() {
        let piece = word + (index == words.count - 1 ? "" : ",")
        if line.count > indent.count && line.count + 1 + piece.count > width {
            lines.append(line)
            line = indent
        }
        line += (line.count > indent.count ? " " : "") + piece
    }
    lines.append(line)
    return lines
}

/// Decimal units, as card and camera makers count: `12.5 GB`.
private func byteCount(_ bytes: UInt64) -> String {
    let units = ["bytes", "kB", "MB", "GB", "TB", "PB"]
    guard bytes >= 1000 else { return "\(bytes) bytes" }
    var value = Double(bytes)
    var unit = 0
    while value >= 1000 && unit < units.count - 1 {
        value /= 1000
        unit += 1
    }
    let tenths = Int((value * 10).rounded())
    return "\(tenths / 10).\(tenths % 10) \(units[unit])"
}
