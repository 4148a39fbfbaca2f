import CFuzzerDriver
#if canImport(Glibc)
import Glibc
#endif

/// The fuzzer's body, for libFuzzer's C callback, which can capture nothing.
nonisolated(unsafe) private var body: ([UInt8]) -> Void = { _ in }

/// Hands the program's arguments to libFuzzer, which calls `tryInput` with each input it makes, and exits
/// with libFuzzer's status. A crash or failed precondition in `tryInput` is a finding.
public func runFuzzer(_ tryInput: @escaping ([UInt8]) -> Void) -> Never {
    body = tryInput
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in
        body(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
        return 0
    })
}
