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
    public static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
        withTables { $0.multiply(a, b) }
    }

    /// a / b; `b` must not be 0.
    public static func divide(_ a: UInt8, _ b: UInt8) -> UInt8 {
        withTables { $0.divide(a, b) }
    }

    /// The multiplicative inverse of `a` (a ≠ 0).
    public static func inverse(_ a: UInt8) -> UInt8 {
        divide(1, a)
    }

    /// αⁿ for any integer n (negative powers included).
    public static func alphaPower(_ n: Int) -> UInt8 {
        withTables { $0.alphaPower(n) }
    }

    /// The tables fetched once, for loops that would otherwise pay a lazily initialised global's
    /// `swift_once` check on every product.
    struct Tables {
        let exp: UnsafeBufferPointer<UInt8>
        let log: UnsafeBufferPointer<UInt8>

        /// a · b.
        @inline(__always)
        func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
            a == 0 || b == 0 ? 0 : exp[Int(log[Int(a)]) + Int(log[Int(b)])]
        }

        /// a / b; `b` must not be 0.
        @inline(__always)
        func divide(_ a: UInt8, _ b: UInt8) -> UInt8 {
            precondition(b != 0, "division by zero in GF(256)")
            return a == 0 ? 0 : exp[Int(log[Int(a)]) + 255 - Int(log[Int(b)])]
        }

        /// αⁿ for any integer n (negative powers included).
        @inline(__always)
        func alphaPower(_ n: Int) -> UInt8 {
            exp[((n % 255) + 255) % 255]
        }
    }

    /// Runs `body` with the tables; their buffers are valid only inside it.
    static func withTables<R>(_ body: (Tables) -> R) -> R {
        exp.withUnsafeBufferPointer { exp in
            log.withUnsafeBufferPointer { log in body(Tables(exp: exp, log: log)) }
        }
    }
}
