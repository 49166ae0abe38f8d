#ifndef LAYERCAST_CLIBEV_SHIM_H
#define LAYERCAST_CLIBEV_SHIM_H

/* libev (no pkg-config file on Debian: the header is /usr/include/ev.h and the library is -lev,
 * both from libev-dev, which libwebsockets-dev depends on). Its loop is created, handed to
 * libwebsockets as a foreign loop, turned and destroyed; its one-shot timers run ours. */
#include <ev.h>

/// A one-shot libev timer that carries its owner, so a Swift callback can find its object from
/// the `ev_timer *` libev hands back.
typedef struct layercast_ev_timer {
    ev_timer watcher;   /* first member: a pointer to it is a pointer to the whole */
    void *owner;
} layercast_ev_timer;

typedef void (*layercast_ev_timer_callback)(struct ev_loop *loop, ev_timer *watcher, int events);

/// Prepares `timer` (ev_init is a macro Swift cannot import).
static inline void layercast_ev_timer_init(layercast_ev_timer *timer, layercast_ev_timer_callback callback) {
    ev_init(&timer->watcher, callback);
}

/// (Re)starts `timer` to fire once, `after` seconds from now: from the clock read here, not the
/// loop's cached time, which is as old as the loop's last wake.
static inline void layercast_ev_timer_start(struct ev_loop *loop, layercast_ev_timer *timer, ev_tstamp after) {
    ev_timer_stop(loop, &timer->watcher);
    ev_now_update(loop);
    ev_timer_set(&timer->watcher, after, 0.);
    ev_timer_start(loop, &timer->watcher);
}

/// A libev read watcher on one descriptor that carries its owner, likewise.
typedef struct layercast_ev_io {
    ev_io watcher;      /* first member */
    void *owner;
} layercast_ev_io;

typedef void (*layercast_ev_io_callback)(struct ev_loop *loop, ev_io *watcher, int events);

/// Starts `io` watching `fd` for reading (ev_io_init is a macro), before lws's own watchers of the
/// same loop (the highest priority).
static inline void layercast_ev_io_start(struct ev_loop *loop, layercast_ev_io *io, int fd, layercast_ev_io_callback callback) {
    ev_io_init(&io->watcher, callback, fd, EV_READ);
    ev_set_priority(&io->watcher, EV_MAXPRI);
    ev_io_start(loop, &io->watcher);
}

#endif
