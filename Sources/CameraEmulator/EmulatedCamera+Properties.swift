import PTP
import RawImage
import SceneSynthesis

extension EmulatedCamera {
    /// GetDevicePropDesc, GetDevicePropValue and SetDevicePropValue (ISO 15740 §10.5.22–10.5.24).
    func answerPropertyOperation(_ code: OperationCode, property: UInt32, dataOut: [UInt8]?) -> PTPResponderReply {
        guard let propertyCode = UInt16(exactly: property).map(DevicePropertyCode.init(rawValue:)),
            properties[propertyCode] != nil
        else { return PTPResponderReply(.devicePropNotSupported) }
        refreshClock()
        switch code {
        case .getDevicePropDesc:
            guard let description = properties[propertyCode] else { return PTPResponderReply(.devicePropNotSupported) }
            return .dataset(describedForProgram(description))
        case .getDevicePropValue:
            guard let value = properties.value(propertyCode) else { return PTPResponderReply(.devicePropNotSupported) }
            return .data(value.ptpEncoded)
        default:
            if propertyCode == .exposureTime, !bulbOffered,
                let bulb = model.bulbExposureTimeValue, (try? PTPValue(ptpEncoded: dataOut ?? [], type: .uint32)) == .uint32(bulb)
            {
                return PTPResponderReply(.invalidDevicePropValue)
            }
            let (response, value) = properties.set(propertyCode, bytes: dataOut ?? [])
            guard response == .ok, let value else { return PTPResponderReply(response) }
            if propertyCode == .dateTime {
                // Any string decodes as a STR value; the clock takes only a valid PTP date-time.
                guard let text = value.stringValue, let time = try? PTPDateTime(ptpString: text) else {
                    refreshClock()
                    return PTPResponderReply(.invalidDevicePropValue)
                }
                clock.set(time)
                refreshClock()
            }
            return PTPResponderReply()
        }
    }

    /// Copies the clock into the DateTime property, so it reads as the time of asking.
    private func refreshClock() {
        properties.setCurrent(.dateTime, .string(clock.now().ptpString))
    }

    // MARK: The settings a shot uses

    /// The image quality the quality property selects.
    var currentQuality: ImageQuality {
        properties.value(model.qualityProperty).flatMap(model.quality(for:)) ?? model.defaultQuality
    }

    /// The raw bit depth.
    var currentRawBitDepth: Int {
        // A body with one raw depth has no property for it (and a maker may use the code for something else).
        if model.rawBitDepths.count == 1, let only = model.rawBitDepths.first { return only }
        if let values = model.rawBitDepthValues, let current = properties.value(model.rawBitDepthProperty),
            let index = values.firstIndex(of: current), index < model.rawBitDepths.count
        {
            return model.rawBitDepths[index]
        }
        return properties.integer(model.rawBitDepthProperty) ?? model.defaultRawBitDepth
    }

    /// The store captures go to when InitiateCapture leaves the choice to the camera.
    var captureTargetStorage: StorageID {
        if model.personality == .fujifilm { return fujifilmCaptureStorage }
        return properties.integer(model.captureTargetProperty) == 1 ? Self.memoryStorageID : Self.cardStorageID
    }

    /// The light the white balance setting balances for; `nil` for automatic (the scene's own light).
    var whiteBalanceTarget: SceneIlluminant? {
        let value = properties.integer(.whiteBalance).flatMap(UInt16.init(exactly:))
        return model.whiteBalances.first { $0.value == value }?.balancesFor
    }

    /// The exposure the controls describe: shutter, aperture, ISO, bias and focal length.
    func currentExposure() throws(RawImageError) -> ExposureSettings {
        let shutterValue = properties.integer(.exposureTime).flatMap(UInt32.init(exactly:))
        // A bulb shot records the time its shutter was held open (`EmulatedCamera+Bulb.swift`).
        let shutter = bulbExposureTime ?? model.shutterSpeeds.first { $0.propertyValue == shutterValue }?.nominal
        guard let shutter else { throw RawImageError(.invalidSettings, "exposure time \(String(describing: shutterValue))") }
        let fNumber = Double(properties.integer(.fNumber) ?? 800) / 100
        let iso = properties.integer(.exposureIndex) ?? 100
        let thousandths = properties.integer(.exposureBiasCompensation) ?? 0
        let thirds = Int32((Double(thousandths) * 3 / 1000).rounded())
        guard let bias = Rational(thirds, 3) else { throw RawImageError(.invalidSettings, "exposure bias") }
        return try ExposureSettings(
            exposureTime: shutter, fNumber: fNumber, iso: iso, exposureBias: bias,
            focalLength: Double(model.focalLength))
    }

    // MARK: Descriptions

    /// The property descriptions of a new camera of `model` with a `width`×`height` sensor.
    static func makeProperties(_ model: CameraModel, width: Int, height: Int) -> PropertyTable {
        var table = PropertyTable()
        func enumeration(
            _ code: DevicePropertyCode, _ type: DataTypeCode, _ values: [PTPValue], current: PTPValue,
            settable: Bool = true
        ) {
            table.add(
                DevicePropDesc(
                    propertyCode: code, dataType: type, getSet: settable ? 1 : 0, factoryDefaultValue: current,
                    currentValue: current, form: .enumeration(values)))
        }
        // BatteryLevel: a range in percent, as libgphoto2's generic battery widget expects; a tethered camera runs
        // on USB power and stays full.
        table.add(
            DevicePropDesc(
                propertyCode: .batteryLevel, dataType: .uint8, getSet: 0, factoryDefaultValue: .uint8(100),
                currentValue: .uint8(100), form: .range(minimum: .uint8(0), maximum: .uint8(100), step: .uint8(1))))
        let size = PTPValue.string("\(width)x\(height)")
        enumeration(.imageSize, .string, [size], current: size, settable: false)
        let qualityDefault = model.qualityValue(for: model.defaultQuality) ?? model.qualityValues[0].value
        enumeration(
            model.qualityProperty, qualityDefault.dataType, model.qualityValues.map(\.value), current: qualityDefault)
        let whiteBalances = model.whiteBalances.map { PTPValue.uint16($0.value) }
        enumeration(.whiteBalance, .uint16, whiteBalances, current: whiteBalances[0])
        enumeration(
            .fNumber, .uint16, model.apertures.map(PTPValue.uint16),
            current: .uint16(model.apertures.contains(800) ? 800 : model.apertures[0]))
        let focal = PTPValue.uint32(UInt32(model.focalLength * 100))
        enumeration(.focalLength, .uint32, [focal], current: focal, settable: false)
        let shutters =
            model.shutterSpeeds.map { PTPValue.uint32($0.propertyValue) }
            + (model.bulbExposureTimeValue.map { [PTPValue.uint32($0)] } ?? [])
        let standardShutter = model.shutterSpeeds.first { $0.nominal == Rational(1, 125) } ?? model.shutterSpeeds[0]
        enumeration(.exposureTime, .uint32, shutters, current: .uint32(standardShutter.propertyValue))
        enumeration(
            .exposureIndex, .uint16, model.isoSpeeds.map(PTPValue.uint16),
            current: .uint16(model.isoSpeeds.contains(100) ? 100 : model.isoSpeeds[0]))
        let biases = model.biasThirds.map { PTPValue.int16(Int16((Double($0) * 1000 / 3).rounded())) }
        if model.hasExposureBias { enumeration(.exposureBiasCompensation, .int16, biases, current: .int16(0)) }
        table.add(
            DevicePropDesc(
                propertyCode: .dateTime, dataType: .string, getSet: 1, factoryDefaultValue: .string(""),
                currentValue: .string("")))
        // A body with one raw depth (most makers') has no property for it; a maker's property may carry its own
        // codes for the depths.
        if let values = model.rawBitDepthValues, let index = model.rawBitDepths.firstIndex(of: model.defaultRawBitDepth),
            index < values.count
        {
            enumeration(model.rawBitDepthProperty, values[index].dataType, values, current: values[index])
        } else if model.rawBitDepths.count > 1 {
            enumeration(
                model.rawBitDepthProperty, .uint8, model.rawBitDepths.map { .uint8(UInt8($0)) },
                current: .uint8(UInt8(model.defaultRawBitDepth)))
        }
        if model.hasCaptureTarget {
            enumeration(model.captureTargetProperty, .uint8, [.uint8(0), .uint8(1)], current: .uint8(0))
        }
        addPersonalityProperties(model, to: &table)
        return table
    }
}
