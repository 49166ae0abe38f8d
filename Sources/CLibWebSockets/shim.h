#ifndef LAYERCAST_CLIBWEBSOCKETS_SHIM_H
#define LAYERCAST_CLIBWEBSOCKETS_SHIM_H

#include <libwebsockets.h>

/// Bytes libwebsockets needs in front of every buffer passed to lws_write().
/// LWS_PRE is a computed macro that Swift cannot import, so it is exposed as a constant.
static const size_t layercast_lws_pre = LWS_PRE;

#endif
