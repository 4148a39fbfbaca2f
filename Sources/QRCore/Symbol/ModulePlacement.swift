/// The zig-zag order in which codeword bits fill a symbol's data modules (ISO/IEC 18004 §7.7.3): pairs of
/// columns from the right, upwards then downwards in turn, right column before left, skipping function
/// modules. QR, Micro QR and rMQR symbols share it; QR skips its vertical timing column.
public enum ModulePlacement {
    /// Module indices (y · width + x) of the non-function modules in placement order; the first column pair
    /// ends at `firstColumn` (the right edge unless a timing column lies there, as in rMQR).
    public static func order(width: Int, height: Int, isFunction: [UInt8], skipColumn: Int? = nil,
                             firstColumn: Int? = nil) -> [Int32] {
        var order: [Int32] = []
        order.reserveCapacity(width * height)
        var right = firstColumn ?? width - 1
        var upward = true
        while right >= 1 {
            if right == skipColumn { right -= 1 }
            for vert in 0..<height {
                let y = upward ? height - 1 - vert : vert
                for x in stride(from: right, through: right - 1, by: -1) where isFunction[y * width + x] == 0 {
                    order.append(Int32(y * width + x))
                }
            }
            upward.toggle()
            right -= 2
        }
        return order
    }
}
