extension NikonImageQualityTable {
    /// A Nikon body whose CompressionSetting numbering libgphoto2 establishes: `camlibs/ptp2/config.c` `menus[]`
    /// picks the "imagequality" table by USB product ID (vendor 0x04B0), and `library.c` `models[]` names the
    /// product (`{"Nikon:DSC D850", 0x04b0, 0x0441, …}`).
    public struct Body: Hashable, Sendable, CustomStringConvertible {
        /// The model as DeviceInfo reports it, without spaces (`D850`, `Z6`, `Z6_2`).
        public var model: String
        /// The USB idProduct (vendor 0x04B0).
        public var usbProductID: UInt16
        /// Its numbering.
        public var table: NikonImageQualityTable

        /// `D850 (04B0:0441)`.
        public var description: String { "\(model) (04B0:\(hex4(usbProductID)))" }
    }

    /// The bodies libgphoto2 gives an image quality table of their own. Every other Nikon it reads with
    /// ``classic``.
    public static let knownBodies: [Body] = [
        Body(model: "D40", usbProductID: 0x0414, table: .d40),
        Body(model: "D90", usbProductID: 0x0421, table: .classic),
        Body(model: "D5000", usbProductID: 0x0423, table: .classic),
        Body(model: "D3S", usbProductID: 0x0426, table: .classic),
        Body(model: "D500", usbProductID: 0x043C, table: .optimalQuality),
        Body(model: "D7500", usbProductID: 0x0440, table: .optimalQuality),
        Body(model: "D850", usbProductID: 0x0441, table: .optimalQuality),
        Body(model: "Z7", usbProductID: 0x0442, table: .optimalQuality),
        Body(model: "Z6", usbProductID: 0x0443, table: .optimalQuality),
        Body(model: "Z50", usbProductID: 0x0444, table: .optimalQuality),
        Body(model: "D780", usbProductID: 0x0446, table: .optimalQuality),
        Body(model: "Z5", usbProductID: 0x0448, table: .optimalQuality),
        Body(model: "Z7_2", usbProductID: 0x044B, table: .optimalQuality),
        Body(model: "Z6_2", usbProductID: 0x044C, table: .optimalQuality),
        Body(model: "ZFC", usbProductID: 0x044F, table: .optimalQuality),
        Body(model: "Z9", usbProductID: 0x0450, table: .optimalQuality),
        Body(model: "Z8", usbProductID: 0x0451, table: .optimalQuality),
        Body(model: "Z30", usbProductID: 0x0452, table: .optimalQuality),
    ]

    /// The numbering ``identify(model:usbProductID:enumeration:current:)`` chose, or why there is none.
    public struct Choice: Hashable, Sendable, CustomStringConvertible {
        /// The numbering, or `nil` when none can be established: the caller then leaves the setting as it is.
        public var table: NikonImageQualityTable?
        /// One line of evidence, for logs and warnings.
        public var reason: String

        /// `optimal-quality: D850 (04B0:0441) by USB product`.
        public var description: String { "\(table?.name ?? "unknown"): \(reason)" }
    }

    /// Picks the numbering of a body's CompressionSetting.
    ///
    /// 1. A body in ``knownBodies``, by USB product ID first (what libgphoto2 keys on) and DeviceInfo model second,
    ///    gets its table, unless the camera's values contradict it.
    /// 2. Any other body gets the numbering its values leave: values among 8–13 exist only in ``optimalQuality``;
    ///    values up to 7 with a NEF + JPEG among 5–7 fit ``classic``, libgphoto2's numbering for every Nikon it does
    ///    not list; values up to 4 fit ``classic`` and ``d40`` alike.
    /// 3. Otherwise there is none: a value no numbering defines, no enumeration to check, or an ambiguous one.
    ///
    /// - Parameters:
    ///   - model: DeviceInfo Model (`D850`, `Z 6_2`).
    ///   - usbProductID: idProduct when the camera is on USB with Nikon's vendor ID (0x04B0); `nil` otherwise.
    ///   - enumeration: the values of the property's DevicePropDesc enumeration; `nil` when it has another form.
    ///   - current: its current value, checked like the enumeration's.
    public static func identify(
        model: String, usbProductID: UInt16?, enumeration: [UInt8]?, current: UInt8? = nil
    ) -> Choice {
        let values = (enumeration ?? []) + (current.map { [$0] } ?? [])
        let listed = values.map(String.init).joined(separator: ", ")
        let key = normalizedModel(model)
        let body: (Body, String)? =
            if let usbProductID, let byProduct = knownBodies.first(where: { $0.usbProductID == usbProductID }) {
                (byProduct, "USB product 04B0:\(hex4(usbProductID)) is the \(byProduct.model) in libgphoto2")
            } else if let byModel = knownBodies.first(where: { $0.model == key }) {
                (byModel, "model \"\(model)\" is the \(byModel.model) in libgphoto2")
            } else {
                nil
            }
        if let (body, evidence) = body {
            guard body.table.defines(values) else {
                let foreign = values.filter { body.table.quality(of: $0) == nil }.map(String.init)
                return Choice(
                    table: nil,
                    reason:
                        "\(evidence), whose \(body.table) numbering has no value \(foreign.joined(separator: ", ")) "
                        + "the camera offers (\(listed))")
            }
            return Choice(table: body.table, reason: evidence)
        }
        let unlisted = "\"\(model)\" is not a body libgphoto2 lists"
        guard enumeration != nil, !values.isEmpty else {
            return Choice(table: nil, reason: "\(unlisted), and it lists no values to tell its numbering by")
        }
        if let foreign = values.first(where: { $0 > 13 }) {
            return Choice(table: nil, reason: "\(unlisted), and no numbering rawcap knows has its value \(foreign)")
        }
        if let starOnly = values.first(where: { $0 >= 8 }) {
            return Choice(
                table: .optimalQuality,
                reason: "\(unlisted); its value \(starOnly) exists only in the ★ numbering (values \(listed))")
        }
        if values.contains(where: { $0 >= 5 }) {
            return Choice(
                table: .classic,
                reason: "\(unlisted); its values (\(listed)) fit the numbering libgphoto2 reads unlisted Nikons with")
        }
        return Choice(
            table: nil, reason: "\(unlisted), and its values (\(listed)) fit both the classic and the D40 numbering")
    }

    /// Picks the numbering of a body's CompressionSetting from its DevicePropDesc (a UINT8 enumeration; any other
    /// form or type gives no values to check), as ``identify(model:usbProductID:enumeration:current:)`` does.
    public static func identify(model: String, usbProductID: UInt16?, descriptor: DevicePropDesc) -> Choice {
        func byte(_ value: PTPValue) -> UInt8? {
            if case .uint8(let byte) = value { return byte }
            return nil
        }
        var enumeration: [UInt8]?
        if descriptor.dataType == .uint8, case .enumeration(let values) = descriptor.form {
            enumeration = values.compactMap(byte)
        }
        return identify(
            model: model, usbProductID: usbProductID, enumeration: enumeration, current: byte(descriptor.currentValue))
    }

    /// `Z 6_2` → `Z6_2`, `Z 6II` → `Z6_2`, `Nikon D850` → `D850`, `Z fc` → `ZFC`.
    static func normalizedModel(_ model: String) -> String {
        var key = model.uppercased()
        for prefix in ["NIKON ", "DSC "] where key.hasPrefix(prefix) { key.removeFirst(prefix.count) }
        key.removeAll { $0 == " " }
        if key.hasPrefix("Z"), key.hasSuffix("II") { key = String(key.dropLast(2)) + "_2" }
        return key
    }
}

/// Four upper-case hex digits: ``hex(_:)`` without its `0x`.
private func hex4(_ value: UInt16) -> String { String(hex(value).dropFirst(2)) }
