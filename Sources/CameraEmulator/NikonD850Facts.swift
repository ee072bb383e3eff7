import PTP

/// The properties of a real Nikon D850, as libgphoto2's summary of one records them
/// (`camlibs/ptp2/cameras/nikon-d850.txt` at libgphoto2 commit 1ecba9f5, SHA-256 of the file
/// 4ff76709c3175c0baad789b348f9989390a77568e74e450b3a20e8b97665fa2e; the summary lists DeviceInfo's properties,
/// then the GetVendorPropCodes list). Converted by `Fixtures/ptp-real/tools/nikon-summary-to-facts.py`; Artist and
/// Copyright strings blanked. One property a line: `CODE TYPE ACCESS FORM … = CURRENT` (`range MIN MAX STEP`,
/// `enum VALUE…`, `none`).
///
/// The `nikon` personality answers every one of them (``CameraModel/realBodyProperties``), so DeviceInfo, GetVendorPropCodes
/// and each GetDevicePropDesc carry what the real body sent, except where the emulator models a property itself
/// (image quality without TIFF, RawBitMode, RecordingMedia, exposure, ISO, aperture, white balance, image size,
/// focal length, date): those keep the emulator's own descriptions, in the real body's place.
enum NikonD850Facts {
    /// The first 22 lines are DeviceInfo's DevicePropertiesSupported; the rest are GetVendorPropCodes'.
    static let deviceInfoPropertyCount = 22

    static let text = """
    0x5001 u8 r range 1 100 1 = 60
    0x5003 str rw enum '8256x5504' '6192x4128' '4128x2752' = '4128x2752'
    0x5004 u8 rw enum 0 1 2 3 4 5 6 7 8 9 10 11 12 13 = 6
    0x5005 u16 rw enum 2 4 5 6 7 32784 32785 32786 32787 32790 = 2
    0x5007 u16 rw enum 180 200 220 250 280 320 350 400 450 500 560 630 710 800 900 1000 1100 1300 1400 1600 = 1600
    0x5008 u32 r range 5000 5000 1 = 5000
    0x500a u16 r enum 1 32784 32785 32787 = 1
    0x500b u16 rw enum 2 3 4 32784 = 3
    0x500c u16 rw enum 2 4 32784 32786 = 32784
    0x500d u32 rw enum 1 2 3 4 5 6 8 10 12 15 20 25 31 40 50 62 80 100 125 166 200 250 333 400 500 666 769 1000 1250 1666 2000 2500 3333 4000 5000 6250 7692 10000 13000 16000 20000 25000 30000 40000 50000 60000 80000 100000 130000 150000 200000 250000 300000 4294967295 4294967293 = 7692
    0x500e u16 rw enum 1 2 3 4 = 1
    0x500f u16 rw enum 32 40 50 64 80 100 125 160 200 250 320 400 500 640 800 1000 1250 1600 2000 2500 3200 4000 5000 6400 8000 10000 12800 16000 20000 25600 32000 40000 51200 = 400
    0x5010 i16 rw enum -5000 -4666 -4333 -4000 -3666 -3333 -3000 -2666 -2333 -2000 -1666 -1333 -1000 -666 -333 0 333 666 1000 1333 1666 2000 2333 2666 3000 3333 3666 4000 4333 4666 5000 = 0
    0x5011 str rw none = '20180711T032449'
    0x5013 u16 r enum 1 2 32784 32785 32786 32790 32792 = 32785
    0x5018 u16 rw range 1 200 1 = 1
    0x501c u16 rw enum 2 32784 32785 32786 32787 32788 32789 32790 = 32784
    0x501e str r none = ''
    0x501f str r none = ''
    0xd303 u8 r none = 1
    0xd406 str rw none = 'Windows/6.0.5330.0 MTPClassDriver/6.0.5330.0'
    0xd407 u32 r none = 1
    0xd010 u8 rw range 0 3 1 = 0
    0xd011 str rw none = '                    '
    0xd012 str rw none = '                    '
    0xd013 str rw none = '                    '
    0xd014 str rw none = '                    '
    0xd015 u8 rw range 0 1 1 = 0
    0xd016 u8 rw range 0 2 1 = 0
    0xd017 u16 rw range 0 1224 1 = 612
    0xd018 u16 rw range 0 1224 1 = 612
    0xd019 u16 rw range 0 1224 1 = 612
    0xd01a u16 rw range 0 1224 1 = 612
    0xd01b u16 rw range 0 1224 1 = 612
    0xd01c u16 rw range 0 1224 1 = 612
    0xd01d u16 rw range 0 1224 1 = 612
    0xd01e u16 rw range 2500 10000 10 = 5000
    0xd01f u8 rw range 1 6 1 = 1
    0xd021 str rw none = '                                    '
    0xd022 str rw none = '                                    '
    0xd023 str rw none = '                                    '
    0xd024 str rw none = '                                    '
    0xd026 u32 r none = 254413569
    0xd027 u32 r none = 254413569
    0xd028 u32 r none = 254413569
    0xd029 u32 r none = 254413569
    0xd02e u8 rw range 0 40 1 = 0
    0xd02f u8 rw range 0 22 1 = 0
    0xd030 u8 rw range 0 4 1 = 0
    0xd032 u8 rw range 0 1 1 = 0
    0xd033 u8 rw range 0 1 1 = 0
    0xd034 u8 rw range 0 2 1 = 2
    0xd038 str rw none = '                                    '
    0xd039 str rw none = '                                    '
    0xd03a u16 rw range 0 1224 1 = 612
    0xd03b u16 rw range 0 1224 1 = 612
    0xd03c u8 rw range 0 1 1 = 0
    0xd03d u8 rw range 0 1 1 = 0
    0xd03e u32 r none = 254413569
    0xd03f u32 r none = 254413569
    0xd040 u8 rw range 0 3 1 = 0
    0xd041 str rw none = '                    '
    0xd042 str rw none = '                    '
    0xd043 str rw none = '                    '
    0xd044 str rw none = '                    '
    0xd045 u8 rw range 0 1 1 = 0
    0xd046 u8 rw range 1 5 1 = 3
    0xd047 u8 rw range 1 3 1 = 2
    0xd048 u8 rw range 0 3 1 = 3
    0xd049 u8 rw range 0 1 1 = 0
    0xd04f u8 rw range 0 1 1 = 0
    0xd053 u8 rw range 0 1 1 = 1
    0xd054 u8 rw range 0 1 1 = 0
    0xd055 u8 rw range 0 2 1 = 0
    0xd056 u8 rw range 0 2 1 = 0
    0xd057 u8 rw range 0 2 1 = 0
    0xd059 u8 rw range 0 4 1 = 0
    0xd05a i8 rw range -6 6 1 = 0
    0xd05b i8 rw range -6 6 1 = 0
    0xd05c i8 rw range -6 6 1 = 0
    0xd05d u8 rw range 0 4 1 = 2
    0xd061 u8 rw enum 0 2 3 4 = 3
    0xd067 i32 r none = 23553130
    0xd068 u8 rw range 1 8 1 = 4
    0xd069 u8 rw range 1 200 1 = 200
    0xd06a u8 rw range 0 5 1 = 0
    0xd06b u8 rw range 0 1 1 = 1
    0xd06c u8 rw range 0 2 1 = 1
    0xd070 u8 rw range 0 3 1 = 2
    0xd072 str rw none = ''
    0xd073 str rw none = ''
    0xd074 u8 rw range 0 7 1 = 1
    0xd075 u8 rw range 0 11 1 = 0
    0xd078 u8 rw range 0 4 1 = 0
    0xd079 u8 rw range 0 3 1 = 0
    0xd07a u8 rw range 0 1 1 = 0
    0xd07d i32 r none = 23592808
    0xd07e i32 r none = -1
    0xd07f u8 rw range 0 1 1 = 0
    0xd087 u8 rw range 0 1 1 = 0
    0xd08a u8 rw range 0 1 1 = 0
    0xd08d u8 rw range 0 1 1 = 0
    0xd08f u8 rw range 0 3 1 = 3
    0xd090 str rw none = ''
    0xd091 u8 rw range 0 1 1 = 0
    0xd092 u8 rw range 0 1 1 = 0
    0xd093 u8 rw range 0 8 1 = 0
    0xd09c u8 r range 0 1 1 = 0
    0xd09d u8 rw range 0 1 1 = 0
    0xd09e u8 rw enum 0 1 = 1
    0xd09f u8 rw range 0 1 1 = 1
    0xd0a0 u8 rw range 0 12 1 = 3
    0xd0a2 u8 rw range 0 5 1 = 0
    0xd0a3 u8 rw range 0 1 1 = 1
    0xd0a4 u32 r none = 0
    0xd0a7 u8 rw range 0 1 1 = 1
    0xd0a8 u8 rw range 1 20 1 = 15
    0xd0aa u8 rw range 0 1 1 = 0
    0xd0ab u16 r none = 32894
    0xd0ac u8 rw range 0 1 1 = 0
    0xd0ad u8 rw range 0 1 1 = 0
    0xd0ae u8 rw range 6 39 1 = 34
    0xd0af u8 rw enum 0 1 = 0
    0xd0b4 u32 rw enum 32 40 50 64 80 100 125 160 200 250 320 400 500 640 800 1000 1250 1600 2000 2500 3200 4000 5000 6400 8000 10000 12800 16000 20000 25600 32000 40000 51200 102400 = 400
    0xd0b5 u32 r none = 400
    0xd0b6 str rw enum '8256x5504' '6192x4128' '4128x2752' = '8256x5504'
    0xd0b7 u8 rw range 0 1 1 = 0
    0xd0b9 u8 r enum 0 1 2 3 4 5 = 0
    0xd0c0 u8 rw range 0 1 1 = 0
    0xd0c1 u8 r range 0 5 1 = 3
    0xd0c2 u8 r range 0 7 1 = 0
    0xd0c3 u8 r range 1 1 1 = 1
    0xd0c4 u8 r range 0 2 1 = 0
    0xd0c5 u8 r range 0 7 1 = 4
    0xd0c6 u8 r range 0 3 1 = 0
    0xd0c7 u8 r range 0 4 1 = 0
    0xd0e0 u16 r none = 176
    0xd0e1 u8 r range 0 1 1 = 1
    0xd0e2 u64 r none = 51
    0xd0e3 u32 r none = 5000
    0xd0e4 u32 r none = 5000
    0xd0e5 u16 r none = 180
    0xd0e6 u16 r none = 180
    0xd0f7 u8 rw range 0 3 1 = 1
    0xd0f8 u8 rw range 0 1 1 = 0
    0xd100 u32 rw enum 73536 71936 70536 69536 68736 68036 67536 67136 66786 66536 66336 66176 66036 65936 65856 65786 65736 65696 65661 65636 65616 65596 65586 65576 65566 65561 65556 65551 65549 65546 65544 65542 65541 65540 65539 655385 65538 655376 655373 65537 851978 1048586 131073 1638410 196609 262145 327681 393217 524289 655361 851969 983041 1310721 1638401 1966081 4294967295 4294967293 4294967294 = 655373
    0xd101 u8 r range 0 1 1 = 0
    0xd102 u8 r none = 0
    0xd104 u8 r range 0 1 1 = 0
    0xd105 u8 r range 0 1 1 = 0
    0xd106 u8 r range 0 1 1 = 0
    0xd108 u8 rw range 0 153 1 = 1
    0xd109 i8 rw range -30 30 2 = 0
    0xd10b u8 rw range 0 2 1 = 0
    0xd10c u8 r range 0 2 1 = 2
    0xd10e u8 r range 0 3 1 = 0
    0xd112 u8 rw range 0 1 1 = 0
    0xd113 u8 rw range 0 1 1 = 0
    0xd118 u8 rw range 0 1 1 = 0
    0xd120 u8 r range 0 1 1 = 0
    0xd121 u8 r range 0 1 1 = 0
    0xd122 u8 r range 0 3 1 = 0
    0xd124 i8 r range -18 18 1 = 0
    0xd125 u8 r range 0 7 1 = 0
    0xd126 i8 rw range -18 6 2 = 0
    0xd12d u8 r range 0 1 1 = 0
    0xd130 u8 rw range 0 2 1 = 0
    0xd131 u8 rw range 0 3 1 = 0
    0xd132 u8 rw range 0 2 1 = 1
    0xd141 u8 rw range 0 2 1 = 2
    0xd148 u8 rw range 0 2 1 = 1
    0xd149 u8 rw range 0 1 1 = 1
    0xd14e u8 rw range 0 5 1 = 1
    0xd14f u8 rw range 0 6 1 = 3
    0xd150 u8 rw range 0 48 1 = 24
    0xd152 u16 rw range 0 1224 1 = 612
    0xd153 u16 rw range 0 1224 1 = 612
    0xd154 u16 rw range 0 1224 1 = 612
    0xd155 u16 rw range 0 1224 1 = 612
    0xd156 u8 rw range 0 1 1 = 1
    0xd158 u8 rw range 0 1 1 = 0
    0xd159 u8 rw range 0 1 1 = 0
    0xd15a u8 rw range 0 1 1 = 0
    0xd15b u16 r range 100 999 1 = 105
    0xd15c u8 rw range 0 1 1 = 0
    0xd15d u8 rw range 0 1 1 = 0
    0xd15e u16 rw range 0 1224 1 = 612
    0xd161 u8 rw range 0 4 1 = 3
    0xd164 u8 rw range 0 52 1 = 52
    0xd176 u16 rw none = 0
    0xd177 u8 rw range 0 2 1 = 0
    0xd183 u8 rw range 0 39 1 = 34
    0xd197 u8 rw enum 0 1 = 0
    0xd199 u8 rw range 0 40 1 = 40
    0xd1a2 u8 r range 0 2 1 = 0
    0xd1a3 u8 rw range 0 7 1 = 0
    0xd1a4 u32 r none = 0
    0xd1a5 u8 r enum 0 1 = 0
    0xd1a6 u8 r enum 0 1 = 0
    0xd1a7 u16 r enum 2 4 5 6 7 32784 32785 32786 32787 32788 32790 = 32788
    0xd1a8 u32 r enum 73536 71936 70536 69536 68736 68036 67536 67136 66786 66536 66336 66176 66036 65936 65856 65786 65736 65696 65661 65636 65616 65596 = 65616
    0xd1a9 u16 r enum 0 = 0
    0xd1aa u32 rw enum 64 80 100 125 160 200 250 320 400 500 640 800 1000 1250 1600 2000 2500 3200 4000 5000 6400 8000 10000 12800 16000 20000 25600 32000 40000 51200 102400 = 20000
    0xd1ab i16 r enum -3000 -2666 -2333 -2000 -1666 -1333 -1000 -666 -333 0 333 666 1000 1333 1666 2000 2333 2666 3000 = 0
    0xd1ac u8 rw enum 1 2 3 = 2
    0xd1ad u8 rw range 0 2 1 = 0
    0xd1ae u8 rw enum 0 1 = 0
    0xd1af u16 r enum 2 3 32784 = 3
    0xd1b0 u8 r range 0 3 1 = 0
    0xd1b1 i8 r range -60 60 1 = -8
    0xd1b2 u8 r range 0 1 1 = 0
    0xd1b3 u8 r range 0 1 1 = 0
    0xd1b4 u8 r range 0 200 1 = 19
    0xd1b9 u8 r enum 0 1 2 3 = 3
    0xd1ba u8 r enum 0 1 = 0
    0xd1de u8 rw enum 0 1 = 0
    0xd1df u16 rw enum 180 191 202 213 224 235 248 255 = 248
    0xd1e2 u8 r enum  = 0
    0xd1e3 u8 r enum  = 0
    0xd1e4 u32 r none = 0
    0xd1e5 u8 r enum 0 1 = 0
    0xd1e6 u32 r range 0 9999 1 = 0
    0xd1e7 u8 r none = 0
    0xd1e8 u8 r enum 255 = 255
    0xd1e9 u8 r enum 0 1 = 0
    0xd1ea u8 r none = 1
    0xd1ec u8 rw enum 0 1 = 0
    0xd1ed u8 r enum 0 1 = 0
    0xd1f0 u8 rw range 0 1 1 = 0
    0xd1f1 u32 r range 0 4294967295 1 = 1550
    0xd1f2 u8 r range 0 3 1 = 2
    0xd1f4 i8 rw range -2 2 1 = 0
    0xd1f6 u8 r range 0 1 1 = 0
    0xd1f7 u8 r range 0 2 1 = 0
    0xd200 u16 rw enum 1 2 3 4 5 6 7 8 201 202 203 204 205 206 207 208 209 = 1
    0xd201 u16 r enum  = 0
    0xd20d u8 rw range 0 1 1 = 0
    0xd20e u8 rw range 0 1 1 = 0
    0xd20f u8 rw range 0 1 1 = 0
    0xd210 u8 rw range 0 1 1 = 0
    0xd211 u8 rw range 0 2 1 = 2
    0xd212 u16 rw range 0 1224 1 = 612
    0xd213 u16 rw range 0 1224 1 = 612
    0xd214 u8 rw range 0 6 1 = 3
    0xd215 u16 rw range 0 1224 1 = 612
    0xd216 u16 rw range 0 1224 1 = 612
    0xd218 u16 rw range 0 1224 1 = 612
    0xd219 u16 rw range 0 1224 1 = 612
    0xd21a u16 rw range 2500 10000 10 = 5000
    0xd21b u8 rw range 0 48 1 = 24
    0xd21c u8 rw range 1 6 1 = 1
    0xd21d str rw none = '                                    '
    0xd21e str rw none = '                                    '
    0xd21f str rw none = '                                    '
    0xd220 str rw none = '                                    '
    0xd221 str rw none = '                                    '
    0xd222 str rw none = '                                    '
    0xd223 u32 r none = 254413569
    0xd224 u32 r none = 254413569
    0xd225 u32 r none = 254413569
    0xd226 u32 r none = 254413569
    0xd227 u32 r none = 254413569
    0xd228 u32 r none = 254413569
    0xd229 u16 rw range 0 1224 1 = 612
    0xd22a u16 rw range 0 1224 1 = 612
    0xd22b u16 rw range 0 1224 1 = 612
    0xd22c u16 rw range 0 1224 1 = 612
    0xd22d u16 rw range 0 1224 1 = 612
    0xd22e u16 rw range 0 1224 1 = 612
    0xd22f u8 rw range 0 1 1 = 0
    0xd230 u8 rw range 0 1 1 = 0
    0xd231 u8 rw range 0 1 1 = 0
    0xd232 u8 rw range 0 1 1 = 0
    0xd233 u8 rw range 0 1 1 = 0
    0xd234 u8 rw range 0 1 1 = 0
    0xd235 u8 rw range 0 1 1 = 0
    0xd236 u8 rw range 0 3 1 = 2
    0xd237 u16 rw enum 1 2 3 4 5 6 7 8 100 201 202 203 204 205 206 207 208 209 = 1
    0xd238 u16 r enum  = 0
    0xd239 i8 rw range -6 6 1 = 0
    0xd23a u16 rw enum 2 4 5 6 32784 32785 32786 32787 32789 32790 = 32789
    0xd23b u8 rw range 0 5 1 = 0
    0xd23c u16 rw range 0 1224 1 = 612
    0xd23d u8 rw enum 0 1 = 0
    0xd314 u8 rw range 0 1 1 = 0
    """

    /// Every property, in the real body's order. A line that does not read is a programmer error (the text is
    /// fixed and tested).
    static let descriptions: [DevicePropDesc] = text.split(separator: "\n").map { parse(String($0)) }

    /// Reads one line.
    static func parse(_ line: String) -> DevicePropDesc {
        var tokens: [String] = []
        var rest = Substring(line)
        while let first = rest.first {
            if first == " " {
                rest = rest.dropFirst()
            } else if first == "'" {
                let body = rest.dropFirst()
                let end = body.firstIndex(of: "'") ?? body.endIndex
                tokens.append("'" + body[..<end])
                rest = end < body.endIndex ? body[body.index(after: end)...] : ""
            } else {
                let end = rest.firstIndex(of: " ") ?? rest.endIndex
                tokens.append(String(rest[..<end]))
                rest = rest[end...]
            }
        }
        let code = DevicePropertyCode(rawValue: UInt16(tokens[0].dropFirst(2), radix: 16)!)
        let type: DataTypeCode =
            switch tokens[1] {
            case "i8": .int8
            case "u8": .uint8
            case "i16": .int16
            case "u16": .uint16
            case "i32": .int32
            case "u32": .uint32
            case "i64": .int64
            case "u64": .uint64
            default: .string
            }
        func value(_ token: String) -> PTPValue {
            if type == .string { return .string(String(token.dropFirst())) }
            return try! PTPValue(Int(token)!, as: type)
        }
        let equals = tokens.firstIndex(of: "=")!
        let current = value(tokens[equals + 1])
        let formTokens = tokens[4..<equals]
        let form: DevicePropDesc.Form =
            switch tokens[3] {
            case "range":
                .range(
                    minimum: value(formTokens[formTokens.startIndex]), maximum: value(formTokens[formTokens.startIndex + 1]),
                    step: value(formTokens[formTokens.startIndex + 2]))
            case "enum": .enumeration(formTokens.map(value))
            default: .none
            }
        return DevicePropDesc(
            propertyCode: code, dataType: type, getSet: tokens[2] == "rw" ? 1 : 0, factoryDefaultValue: current,
            currentValue: current, form: form)
    }
}
