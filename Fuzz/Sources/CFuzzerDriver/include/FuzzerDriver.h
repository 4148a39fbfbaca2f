// libFuzzer's driver, called from each fuzzer's entry point (SwiftPM names an executable's entry point
// after its module, so libFuzzer's own main is not the program's).
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
