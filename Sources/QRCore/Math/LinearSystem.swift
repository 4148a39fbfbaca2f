/// Dense linear systems, for the least-squares fits of the geometry (homographies, a symbol's cylinder).
public enum LinearSystem {
    /// Solves the dense system `a · x = b` (row-major `size` × `size`) by Gaussian elimination with partial
    /// pivoting; nil when singular.
    public static func solve(_ a: [Double], _ b: [Double], size: Int) -> [Double]? {
        var m = a, rhs = b
        for column in 0..<size {
            var pivot = column
            for row in (column + 1)..<size where abs(m[row * size + column]) > abs(m[pivot * size + column]) { pivot = row }
            guard abs(m[pivot * size + column]) > 1e-12 else { return nil }
            if pivot != column {
                for k in 0..<size { m.swapAt(column * size + k, pivot * size + k) }
                rhs.swapAt(column, pivot)
            }
            for row in (column + 1)..<size {
                let factor = m[row * size + column] / m[column * size + column]
                if factor == 0 { continue }
                for k in column..<size { m[row * size + k] -= factor * m[column * size + k] }
                rhs[row] -= factor * rhs[column]
            }
        }
        var x = [Double](repeating: 0, count: size)
        for row in stride(from: size - 1, through: 0, by: -1) {
            var sum = rhs[row]
            for k in (row + 1)..<size { sum -= m[row * size + k] * x[k] }
            x[row] = sum / m[row * size + row]
        }
        return x
    }
}
