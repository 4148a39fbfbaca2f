/// Arithmetic in GF(2⁸) with the QR code's primitive polynomial x⁸ + x⁴ + x³ + x² + 1 (0x11D) and generator α = 2.
///
/// Addition is XOR. Multiplication goes through logarithm tables; `exp` is doubled in length so that
/// `exp[log a + log b]` needs no modulo.
public enum GF256 {
    /// `exp[i]` = αⁱ for i in 0..<510 (the table repeats after 255).
    public static let exp: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 512)
        var x = 1
        for i in 0..<255 {
            table[i] = UInt8(x)
            x <<= 1
            if x & 0x100 != 0 { x ^= 0x11D }
        }
        for i in 255..<512 { table[i] = table[i - 255] }
        return table
    }()

    /// `log[a]` = i with αⁱ = a, for a ≠ 0 (`log[0]` is unused and 0).
    public static let log: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 256)
        for i in 0..<255 { table[Int(exp[i])] = UInt8(i) }
        return table
    }()

    /// a · b.
    @inlinable
    public static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
        if a == 0 || b == 0 { return 0 }
        return exp[Int(log[Int(a)]) + Int(log[Int(b)])]
    }

    /// a / b; `b` must not be 0.
    @inlinable
    public static func divide(_ a: UInt8, _ b: UInt8) -> UInt8 {
        precondition(b != 0, "division by zero in GF(256)")
        if a == 0 { return 0 }
        return exp[(Int(log[Int(a)]) + 255 - Int(log[Int(b)])) % 255]
    }

    /// The multiplicative inverse of `a` (a ≠ 0).
    @inlinable
    public static func inverse(_ a: UInt8) -> UInt8 {
        divide(1, a)
    }

    /// αⁿ for any integer n (negative powers included).
    @inlinable
    public static func alphaPower(_ n: Int) -> UInt8 {
        exp[((n % 255) + 255) % 255]
    }

    /// c(αᵖ) for the polynomial whose coefficients `coefficients` lists highest power first (Horner's rule).
    ///
    /// The tables are fetched once for the whole evaluation: every access to a lazily initialised global
    /// costs a `swift_once` check, which in the reader's syndrome loop took 5 % of a hard image's decode time.
    @inlinable
    public static func evaluate(_ coefficients: some Sequence<UInt8>, atAlphaPower p: Int) -> UInt8 {
        let power = ((p % 255) + 255) % 255
        return exp.withUnsafeBufferPointer { exp in
            log.withUnsafeBufferPointer { log in
                var value: UInt8 = 0
                for c in coefficients { value = (value == 0 ? 0 : exp[Int(log[Int(value)]) + power]) ^ c }
                return value
            }
        }
    }
}
