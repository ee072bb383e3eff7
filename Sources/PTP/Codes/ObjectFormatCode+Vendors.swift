extension ObjectFormatCode {
    /// Canon object formats (vendor extension ID ``VendorExtensionID/canon``). These numbers overlap other vendors'
    /// codes, so name them with ``PTPCodeTable/description(vendor:)``. Source: libgphoto2 `ptp.h` `PTP_OFC_CANON_*`.
    public enum Canon {
        /// CRW, 0xB101.
        public static let crw = ObjectFormatCode(rawValue: 0xB101)
        /// CRW3, 0xB103: CR2.
        public static let crw3 = ObjectFormatCode(rawValue: 0xB103)
        /// MOV, 0xB104.
        public static let mov = ObjectFormatCode(rawValue: 0xB104)
        /// MOV2, 0xB105.
        public static let mov2 = ObjectFormatCode(rawValue: 0xB105)
        /// CR3, 0xB108.
        public static let cr3 = ObjectFormatCode(rawValue: 0xB108)

        /// The names of Canon's codes, keyed by raw value.
        public static let names: [UInt16: String] = [
            0xB101: "CRW",
            0xB103: "CRW3",
            0xB104: "MOV",
            0xB105: "MOV2",
            0xB108: "CR3",
        ]
    }
}

extension ObjectFormatCode {
    /// Sony object formats (vendor extension ID ``VendorExtensionID/sony``). These numbers overlap other vendors'
    /// codes, so name them with ``PTPCodeTable/description(vendor:)``. Source: libgphoto2 `ptp.h` `PTP_OFC_SONY_RAW`.
    public enum Sony {
        /// ARW, 0xB101: Sony RAW.
        public static let arw = ObjectFormatCode(rawValue: 0xB101)

        /// The names of Sony's codes, keyed by raw value.
        public static let names: [UInt16: String] = [
            0xB101: "ARW"
        ]
    }
}

extension ObjectFormatCode {
    /// Fujifilm object formats (vendor extension ID ``VendorExtensionID/fujifilm``). These numbers overlap other
    /// vendors' codes, so name them with ``PTPCodeTable/description(vendor:)``. libgphoto2's `ptp.h` names no Fujifilm
    /// format; 0xB103 for RAF is the code Fujifilm tethering tools handle (e.g. `PTP_OFC_FUJI_RAF` in community
    /// Fujifilm PTP clients), not confirmed against a body here.
    public enum Fujifilm {
        /// RAF, 0xB103: Fujifilm RAW.
        public static let raf = ObjectFormatCode(rawValue: 0xB103)

        /// The names of Fujifilm's codes, keyed by raw value.
        public static let names: [UInt16: String] = [
            0xB103: "RAF"
        ]
    }
}

extension ObjectFormatCode {
    /// MTP (Microsoft) object formats (vendor extension ID ``VendorExtensionID/microsoft``). These numbers overlap
    /// other vendors' codes, so name them with ``PTPCodeTable/description(vendor:)``. Source: libgphoto2 `ptp.h`
    /// `PTP_OFC_MTP_*`.
    public enum MTP {
        /// Firmware, 0xB802.
        public static let firmware = ObjectFormatCode(rawValue: 0xB802)
        /// WMA, 0xB901.
        public static let wma = ObjectFormatCode(rawValue: 0xB901)
        /// MP4, 0xB982.
        public static let mp4 = ObjectFormatCode(rawValue: 0xB982)
        /// 3GP, 0xB984.
        public static let threeGP = ObjectFormatCode(rawValue: 0xB984)
        /// AbstractAudioAlbum, 0xBA03.
        public static let abstractAudioAlbum = ObjectFormatCode(rawValue: 0xBA03)
        /// AbstractAudioVideoPlaylist, 0xBA05.
        public static let abstractAudioVideoPlaylist = ObjectFormatCode(rawValue: 0xBA05)

        /// The names of MTP (Microsoft)'s codes, keyed by raw value.
        public static let names: [UInt16: String] = [
            0xB802: "Firmware",
            0xB901: "WMA",
            0xB982: "MP4",
            0xB984: "3GP",
            0xBA03: "AbstractAudioAlbum",
            0xBA05: "AbstractAudioVideoPlaylist",
        ]
    }
}

extension ObjectFormatCode {
    /// The names a vendor gives to codes in its extension range (empty for a vendor without a table here).
    public static func vendorNames(_ vendor: VendorExtensionID) -> [UInt16: String] {
        switch vendor {
        case .canon: Canon.names
        case .sony: Sony.names
        case .fujifilm: Fujifilm.names
        case .microsoft: MTP.names
        default: [:]
        }
    }
}
