#include <stdlib.h>
#include "CImageCodecs.h"

void qrc_free(void *pointer) {
    free(pointer);
}
