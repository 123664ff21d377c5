/// Widens an IEEE 754 binary16 bit pattern to `Float`, exactly.
///
/// Written out rather than using `Float16` so the loader behaves the same on
/// every platform Swift supports.
func floatFromHalf(_ bits: UInt16) -> Float {
    let sign = UInt32(bits & 0x8000) << 16
    let exponent = Int(bits >> 10) & 0x1F
    let mantissa = UInt32(bits & 0x03FF)
    switch exponent {
    case 0:
        // Zero or subnormal: value = mantissa * 2^-24.
        let magnitude = Float(mantissa) * Float(sign: .plus, exponent: -24, significand: 1)
        return sign == 0 ? magnitude : -magnitude
    case 0x1F:
        return Float(bitPattern: sign | 0x7F80_0000 | (mantissa << 13))
    default:
        return Float(bitPattern: sign | UInt32(exponent - 15 + 127) << 23 | (mantissa << 13))
    }
}
