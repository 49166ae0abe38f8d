#ifndef LAYERCAST_CLIBEV_SHIM_H
#define LAYERCAST_CLIBEV_SHIM_H

/* libev (no pkg-config file on Debian: the header is /usr/include/ev.h and the library is -lev,
 * both from libev-dev, which libwebsockets-dev depends on). Only its loop is used: created,
 * handed to libwebsockets as a foreign loop, run once per turn, destroyed. */
#include <ev.h>

#endif
