#ifndef LAYERCAST_CLIBWEBSOCKETS_SHIM_H
#define LAYERCAST_CLIBWEBSOCKETS_SHIM_H

#include <libwebsockets.h>

/// Bytes libwebsockets needs in front of every buffer passed to lws_write().
/// LWS_PRE is a computed macro that Swift cannot import, so it is exposed as a constant.
static const size_t layercast_lws_pre = LWS_PRE;

/// lws_write's "bytes already framed, send as they are" (a macro alias Swift cannot import).
static const enum lws_write_protocol layercast_lws_write_raw = LWS_WRITE_RAW;

/// The close code "try again later" (1013), which lws's enum does not name.
static const int layercast_close_try_again_later = 1013;

#endif
