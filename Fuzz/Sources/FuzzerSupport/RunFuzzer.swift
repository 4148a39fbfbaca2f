import CFuzzerDriver
#if canImport(Glibc)
import Glibc
#endif

/// Hands the program's arguments and `body`, which tries one input, to libFuzzer, and exits with its status.
public func runFuzzer(_ body: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, body))
}
