// glibc's allocator settings (mallopt), which its Swift module does not carry.
#include <malloc.h>
