#ifndef CODEC_MESSAGE_H
#define CODEC_MESSAGE_H

#include <stdio.h>
#include "CImageCodecs.h"

/* Copies a library message into a caller's buffer of QRC_MESSAGE_CAPACITY bytes. */
static inline void qrc_set_message(char *message, const char *text) {
    if (message != NULL) snprintf(message, QRC_MESSAGE_CAPACITY, "%s", text != NULL ? text : "");
}

#endif
