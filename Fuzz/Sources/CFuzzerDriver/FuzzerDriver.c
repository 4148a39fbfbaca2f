// The declaration in include/FuzzerDriver.h is the whole of this target; libFuzzer defines the function.
#include "FuzzerDriver.h"
