/* A light spectator load: N WebSocket clients on one epoll loop that read each frame's `n`, `t`
 * and `full` from its prefix (protocol.md, "frame") and skip the rest unparsed, taking many
 * frames per `recv`. The measuring client of bench/peers.py, so the loader is not the limit.
 *
 *   cc -O2 -o spectators bench/spectators.c -lz
 *   ./spectators --url 'ws://127.0.0.1:PORT/ws?scene=radar&room=lobby&role=spectator' --clients N
 *                [--seconds 10] [--ramp PER_SECOND] [--server-pid PID] [--deflate]
 *
 * Connects N clients (subprotocol layercast.v1, at --ramp per second, default max(200, N/2)),
 * waits until each has its 101 or failed (at most 5 s after the last attempt), lets 1 s pass,
 * then measures for --seconds and prints one JSON object on stdout:
 *   clients, open (still connected at the end), errors {reason: count}, seconds, frames (received
 *   in the window), fps (per open client per second), skipped and skipRatio (gaps in `n`, as
 *   layercast loadtest counts them), fulls, ageP50Ms / ageP99Ms / ageMaxMs, clientCpuUsPerFrame and
 *   clientCpuPercent (this process, getrusage), and with --server-pid: serverCpuUsPerClientFrame
 *   and serverCpuPercent (/proc/PID/stat utime + stime over the window) and serverPeakRssMiB
 *   (VmHWM at the end).
 * A frame's age is as layercast loadtest's MediaClock computes it: each client takes the smallest
 * `receipt − t` it has seen as media time 0 on its monotonic clock, and a frame's age is
 * `receipt − that − t`. The lines `measuring` and `measured` on stderr mark the window's start
 * and end. Only 127.0.0.1; bounded by N and ramp + 5 + 1 + --seconds.
 *
 * --deflate: each client offers `permessage-deflate; client_max_window_bits` (RFC 7692, as
 * docs/protocol.md "Compression"); a 101 without a permessage-deflate answer counts the error
 * `no_deflate` (the client stays, reading uncompressed messages). A text message with RSV1 set is
 * raw DEFLATE without its 00 00 FF FF tail and without context takeover, so ONE inflater serves
 * every client: per message it is reset, fed the payload and then the tail, and asked for the
 * first PREFIX bytes of text only, which go to `message()` as an uncompressed prefix does. A
 * compressed payload normally arrives whole in one `recv`; when it does not and its first bytes
 * do not already inflate to PREFIX bytes, it is gathered in a buffer malloc'd for that message
 * (at most PENDING_MAX bytes) and freed once inflated, so a client keeps no buffer otherwise.
 * RSV1 on a client without the extension counts `rsv1_without_deflate`; a payload that does not
 * inflate, `inflate`.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#define PREFIX 125              /* payload bytes enough for the frame prefix */
#define CARRY (14 + PREFIX)     /* a frame header and its prefix, split across reads */
#define RESPONSE_MAX 2048
#define BUCKET_MS 0.1           /* frame-age histogram resolution */
#define BUCKETS 300000          /* up to 30 s */
#define CLIENTS_MAX 60000
#define PENDING_MAX (16 << 20)  /* the largest compressed payload gathered across reads */
#define REASONS 16              /* distinct error reasons counted */

enum state { CONNECTING, HANDSHAKE, OPEN, CLOSED };

struct client {
    int fd;
    enum state state;
    char *response;             /* the handshake response so far (HANDSHAKE) */
    size_t response_len;
    uint64_t skip;              /* payload bytes of the current message still to pass over */
    uint8_t *pending;           /* a compressed payload being gathered across reads, or NULL */
    uint32_t pending_len, pending_size;  /* its bytes so far and in all */
    int deflate;                /* the 101 took permessage-deflate */
    uint8_t carry[CARRY];       /* the start of a message whose header or prefix is incomplete */
    size_t carry_len;
    long long last_n;           /* -1 before the first frame */
    double offset;              /* MediaClock: monotonic seconds at media time 0 (min receipt − t) */
    int has_offset;
};

static struct {
    int measuring;
    long long frames, skipped, fulls;
    uint32_t *ages;
    double age_max;
} stats;

static struct {
    const char *reason;
    long count;
} errors[REASONS];

static void error(const char *reason) {
    for (int i = 0; i < REASONS; i++) {
        if (errors[i].reason == NULL) errors[i].reason = reason;
        if (strcmp(errors[i].reason, reason) == 0) {
            errors[i].count++;
            return;
        }
    }
}

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void close_client(struct client *c, const char *reason) {
    if (reason) error(reason);
    close(c->fd);
    free(c->response);
    c->response = NULL;
    free(c->pending);
    c->pending = NULL;
    c->state = CLOSED;
}

/* One text message whose first `avail` payload bytes (at most PREFIX) are at `text`. */
static void message(struct client *c, const uint8_t *text, size_t avail, double now) {
    static const char start[] = "{\"type\":\"frame\",\"n\":";
    size_t at = sizeof start - 1;
    if (avail < at || memcmp(text, start, at) != 0) return;  /* welcome and other messages */
    long long n = 0;
    size_t digits = at;
    while (at < avail && text[at] >= '0' && text[at] <= '9' && at - digits < 18) n = n * 10 + (text[at++] - '0');
    char number[32];
    size_t t_at = at + 5, t_end = t_at;
    while (t_end < avail && text[t_end] != ',' && t_end - t_at < 31) t_end++;
    if (at == digits || avail < t_at || memcmp(text + at, ",\"t\":", 5) != 0 || t_end == avail ||
        t_end == t_at || t_end - t_at > 31) {
        error("bad_prefix");
        return;
    }
    memcpy(number, text + t_at, t_end - t_at);
    number[t_end - t_at] = 0;
    char *end;
    double t = strtod(number, &end);
    if (*end != 0) {
        error("bad_prefix");
        return;
    }
    if (!c->has_offset || now - t < c->offset) {
        c->offset = now - t;
        c->has_offset = 1;
    }
    long long last = c->last_n;
    c->last_n = n;
    if (!stats.measuring) return;
    stats.frames++;
    if (last >= 0 && n > last) stats.skipped += n - last - 1;
    else if (last >= 0) error("out_of_order");
    static const char full[] = ",\"full\":true";
    if (avail - t_end >= sizeof full - 1 && memcmp(text + t_end, full, sizeof full - 1) == 0) stats.fulls++;
    double age = now - c->offset - t;
    size_t bucket = (size_t)(age * 1000 / BUCKET_MS);
    stats.ages[bucket < BUCKETS ? bucket : BUCKETS - 1]++;
    if (age > stats.age_max) stats.age_max = age;
}

static int offer_deflate;       /* --deflate */
static z_stream inflater;       /* raw DEFLATE, shared by every client (no context takeover) */

/* Inflates the compressed payload at `p` (`len` bytes; followed by the 00 00 FF FF tail when
 * `whole`) from a reset inflater into `text`, stopping at PREFIX bytes of output. Returns the
 * text bytes made, or -1 when the payload is not raw DEFLATE. */
static long inflate_prefix(const uint8_t *p, size_t len, int whole, uint8_t text[PREFIX]) {
    static const uint8_t tail[4] = {0x00, 0x00, 0xFF, 0xFF};
    inflateReset(&inflater);
    inflater.next_out = text;
    inflater.avail_out = PREFIX;
    for (int part = 0; part < 1 + whole && inflater.avail_out > 0; part++) {  /* payload, then tail */
        inflater.next_in = (uint8_t *)(part == 0 ? p : tail);
        inflater.avail_in = part == 0 ? (uInt)len : sizeof tail;
        int status = inflate(&inflater, Z_SYNC_FLUSH);
        if (status != Z_OK && status != Z_STREAM_END && status != Z_BUF_ERROR) return -1;
    }
    return PREFIX - (long)inflater.avail_out;
}

/* A compressed text message whose whole payload (`len` bytes) is at `p`. */
static void compressed_message(struct client *c, const uint8_t *p, size_t len, double now) {
    uint8_t text[PREFIX];
    long made = inflate_prefix(p, len, 1, text);
    if (made < 0) error("inflate");
    else message(c, text, (size_t)made, now);
}

/* The start of a compressed text message: `avail` of its `payload` bytes at `p`, the rest to come.
 * Returns the payload bytes still to pass over (0 when they go to c->pending instead). */
static uint64_t compressed_start(struct client *c, const uint8_t *p, size_t avail, uint64_t payload, double now) {
    uint8_t text[PREFIX];
    if (inflate_prefix(p, avail, 0, text) == PREFIX) {  /* the prefix is already here */
        message(c, text, PREFIX, now);
        return payload - avail;
    }
    c->pending = payload <= PENDING_MAX ? malloc((size_t)payload) : NULL;
    if (!c->pending) {
        error(payload <= PENDING_MAX ? "malloc" : "too_large");
        return payload - avail;
    }
    memcpy(c->pending, p, avail);
    c->pending_len = (uint32_t)avail;
    c->pending_size = (uint32_t)payload;
    return 0;
}

/* The byte count of a message's header and prefix at `p` (`len` bytes there), with the header's
 * length and the payload's; 0 while the header itself is incomplete. */
static size_t head_need(const uint8_t *p, size_t len, size_t *header, uint64_t *payload) {
    if (len < 2) return 0;
    uint64_t size = p[1] & 0x7F;
    size_t h = 2 + (size == 126 ? 2 : size == 127 ? 8 : 0) + (p[1] & 0x80 ? 4 : 0);
    if (len < h) return 0;
    if (size == 126) size = (uint64_t)p[2] << 8 | p[3];
    else if (size == 127) for (int i = 0; i < 8; i++) size = (i ? size << 8 : 0) | p[2 + i];
    *header = h;
    *payload = size;
    return h + (size < PREFIX ? size : PREFIX);
}

/* Bytes received by an open client, in order: messages are read from their head and prefix,
 * the rest of each payload is passed over. */
static void feed(struct client *c, const uint8_t *data, size_t len, double now) {
    while (len > 0 && c->state == OPEN) {
        if (c->pending) {  /* gathering a compressed payload: inflate it once complete */
            size_t k = c->pending_size - c->pending_len < len ? c->pending_size - c->pending_len : len;
            memcpy(c->pending + c->pending_len, data, k);
            c->pending_len += (uint32_t)k;
            data += k;
            len -= k;
            if (c->pending_len == c->pending_size) {
                compressed_message(c, c->pending, c->pending_size, now);
                free(c->pending);
                c->pending = NULL;
            }
            continue;
        }
        if (c->skip > 0) {
            size_t k = c->skip < len ? (size_t)c->skip : len;
            c->skip -= k;
            data += k;
            len -= k;
            continue;
        }
        if (c->carry_len > 0) {  /* complete the carried head, then read it as if it came whole */
            uint8_t joined[CARRY];
            size_t take = CARRY - c->carry_len < len ? CARRY - c->carry_len : len;
            memcpy(joined, c->carry, c->carry_len);
            memcpy(joined + c->carry_len, data, take);
            size_t joined_len = c->carry_len + take;
            c->carry_len = 0;
            data += take;
            len -= take;
            feed(c, joined, joined_len, now);
            continue;
        }
        size_t header;
        uint64_t payload;
        size_t need = head_need(data, len, &header, &payload);
        uint8_t opcode = data[0] & 0x0F;
        int rsv1 = (data[0] & 0x40) != 0 && opcode == 1;
        /* A compressed message needs only its header here: its payload is inflated or gathered. */
        if (need == 0 || (need > len && !(rsv1 && c->deflate))) {  /* at most CARRY bytes */
            memcpy(c->carry, data, len);
            c->carry_len = len;
            return;
        }
        if (opcode == 8) {
            close_client(c, "closed_by_server");
            return;
        }
        uint64_t whole = header + payload;
        size_t used = whole < len ? (size_t)whole : len;
        if (rsv1 && !c->deflate) error("rsv1_without_deflate");
        else if (rsv1 && used == whole) compressed_message(c, data + header, (size_t)payload, now);
        else if (rsv1) {
            c->skip = compressed_start(c, data + header, used - header, payload, now);
            data += used;
            len -= used;
            continue;
        } else if (opcode == 1) message(c, data + header, need - header, now);
        else if (opcode == 2) error("binary_message");  /* protocol.md: every message is text */
        c->skip = whole - used;
        data += used;
        len -= used;
    }
}

static void handshake_reply(struct client *c, const uint8_t *data, size_t len, double now) {
    size_t take = RESPONSE_MAX - 1 - c->response_len < len ? RESPONSE_MAX - 1 - c->response_len : len;
    memcpy(c->response + c->response_len, data, take);
    c->response_len += take;
    c->response[c->response_len] = 0;
    char *end = strstr(c->response, "\r\n\r\n");
    if (!end) {
        if (c->response_len == RESPONSE_MAX - 1) close_client(c, "bad_handshake");
        return;
    }
    if (strncmp(c->response, "HTTP/1.1 101", 12) != 0) {
        close_client(c, "refused");
        return;
    }
    if (offer_deflate) {  /* the answer's Sec-WebSocket-Extensions line names permessage-deflate */
        *end = 0;
        const char *line = strcasestr(c->response, "\r\nSec-WebSocket-Extensions:");
        const char *line_end = line ? strstr(line + 2, "\r\n") : NULL;
        const char *named = line ? strstr(line, "permessage-deflate") : NULL;
        c->deflate = named && (!line_end || named < line_end);
        *end = '\r';
        if (!c->deflate) error("no_deflate");
    }
    size_t head = (size_t)(end + 4 - c->response);
    size_t rest = c->response_len - head;
    uint8_t tail[RESPONSE_MAX];
    memcpy(tail, c->response + head, rest);
    free(c->response);
    c->response = NULL;
    c->state = OPEN;
    feed(c, tail, rest, now);
    feed(c, data + take, len - take, now);
}

static uint8_t buffer[256 * 1024];

static void readable(struct client *c) {
    for (int round = 0; round < 16 && c->state != CLOSED; round++) {
        ssize_t got = recv(c->fd, buffer, sizeof buffer, 0);
        if (got <= 0) {
            if (got < 0 && (errno == EAGAIN || errno == EINTR)) return;
            close_client(c, got == 0 ? "closed_by_server" : "recv");
            return;
        }
        double now = now_seconds();
        if (c->state == HANDSHAKE) handshake_reply(c, buffer, (size_t)got, now);
        else feed(c, buffer, (size_t)got, now);
        if ((size_t)got < sizeof buffer) return;
    }
}

static int epoll_fd;
static struct sockaddr_in server;
static char request[1024];
static size_t request_len;

static void start_connect(struct client *c) {
    c->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    c->last_n = -1;
    c->state = CONNECTING;
    if (c->fd < 0) {
        c->state = CLOSED;
        error("socket");
        return;
    }
    int one = 1;
    setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (connect(c->fd, (struct sockaddr *)&server, sizeof server) != 0 && errno != EINPROGRESS) {
        close_client(c, "connect");
        return;
    }
    struct epoll_event event = {.events = EPOLLOUT, .data.ptr = c};
    epoll_ctl(epoll_fd, EPOLL_CTL_ADD, c->fd, &event);
}

static void connected(struct client *c) {
    int failure = 0;
    socklen_t size = sizeof failure;
    getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &failure, &size);
    c->response = malloc(RESPONSE_MAX);
    if (failure || !c->response || send(c->fd, request, request_len, MSG_NOSIGNAL) != (ssize_t)request_len) {
        close_client(c, "connect");
        return;
    }
    c->state = HANDSHAKE;
    struct epoll_event event = {.events = EPOLLIN, .data.ptr = c};
    epoll_ctl(epoll_fd, EPOLL_CTL_MOD, c->fd, &event);
}

static void serve_events(struct epoll_event *events, int timeout_ms) {
    int ready = epoll_wait(epoll_fd, events, 1024, timeout_ms);
    for (int i = 0; i < ready; i++) {
        struct client *c = events[i].data.ptr;
        if (c->state == CONNECTING) connected(c);
        else if (c->state != CLOSED) readable(c);
    }
}

static double process_cpu(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 + usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6;
}

/* utime + stime of `pid` in seconds; -1 when it cannot be read. */
static double server_cpu(int pid) {
    char path[64], text[2048];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *file = fopen(path, "r");
    if (!file) return -1;
    size_t len = fread(text, 1, sizeof text - 1, file);
    fclose(file);
    text[len] = 0;
    char *field = strrchr(text, ')');
    unsigned long long utime, stime;
    if (!field || sscanf(field + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &utime, &stime) != 2) return -1;
    return (double)(utime + stime) / (double)sysconf(_SC_CLK_TCK);
}

static double server_peak_rss_mib(int pid) {
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", pid);
    FILE *file = fopen(path, "r");
    double kib = -1;
    while (file && fgets(line, sizeof line, file))
        if (sscanf(line, "VmHWM: %lf", &kib) == 1) break;
    if (file) fclose(file);
    return kib < 0 ? -1 : kib / 1024;
}

static double age_percentile_ms(double p) {
    long long total = 0, seen = 0;
    for (int i = 0; i < BUCKETS; i++) total += stats.ages[i];
    if (total == 0) return -1;
    long long rank = (long long)(p * (double)total + 0.999999);
    for (int i = 0; i < BUCKETS; i++) {
        seen += stats.ages[i];
        if (seen >= rank) return (i + 1) * BUCKET_MS;
    }
    return BUCKETS * BUCKET_MS;
}

static int usage(void) {
    fprintf(stderr, "usage: spectators --url ws://127.0.0.1:PORT/PATH --clients N [--seconds S] [--ramp R] [--server-pid PID]"
                    " [--deflate]\n");
    return 64;
}

int main(int argc, char **argv) {
    const char *url = NULL;
    long clients = 0, ramp = 0;
    int server_pid = 0;
    double seconds = 10;
    for (int i = 1; i < argc; i += 2) {
        if (strcmp(argv[i], "--deflate") == 0) {
            offer_deflate = 1;
            i--;  /* a flag: no value follows */
            continue;
        }
        if (i + 1 == argc) return usage();
        if (strcmp(argv[i], "--url") == 0) url = argv[i + 1];
        else if (strcmp(argv[i], "--clients") == 0) clients = atol(argv[i + 1]);
        else if (strcmp(argv[i], "--seconds") == 0) seconds = atof(argv[i + 1]);
        else if (strcmp(argv[i], "--ramp") == 0) ramp = atol(argv[i + 1]);
        else if (strcmp(argv[i], "--server-pid") == 0) server_pid = atoi(argv[i + 1]);
        else return usage();
    }
    static const char scheme[] = "ws://127.0.0.1:";
    if (!url || strncmp(url, scheme, sizeof scheme - 1) != 0 || clients < 1 || clients > CLIENTS_MAX ||
        seconds <= 0 || seconds > 600) {
        fprintf(stderr, "spectators: --url must be ws://127.0.0.1:PORT/…, --clients 1…%d, --seconds 0…600\n", CLIENTS_MAX);
        return usage();
    }
    int port = atoi(url + sizeof scheme - 1);
    const char *path = strchr(url + sizeof scheme - 1, '/');
    if (port <= 0 || port > 65535) return usage();
    if (ramp <= 0) ramp = clients / 2 > 200 ? clients / 2 : 200;
    server = (struct sockaddr_in){.sin_family = AF_INET, .sin_port = htons((uint16_t)port),
                                  .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    request_len = (size_t)snprintf(request, sizeof request,
                                   "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                                   "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                                   "Sec-WebSocket-Protocol: layercast.v1\r\n%s\r\n", path ? path : "/", port,
                                   offer_deflate ? "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n" : "");
    if (request_len >= sizeof request) return usage();
    if (offer_deflate && inflateInit2(&inflater, -15) != Z_OK) return 1;

    struct rlimit limit;
    getrlimit(RLIMIT_NOFILE, &limit);
    limit.rlim_cur = limit.rlim_max;
    setrlimit(RLIMIT_NOFILE, &limit);
    struct client *all = calloc((size_t)clients, sizeof *all);
    stats.ages = calloc(BUCKETS, sizeof *stats.ages);
    struct epoll_event *events = calloc(1024, sizeof *events);
    epoll_fd = epoll_create1(EPOLL_CLOEXEC);
    if (!all || !stats.ages || !events || epoll_fd < 0) return 1;

    /* Connect at `ramp` per second, then wait for every handshake (at most 5 s more). */
    double begin = now_seconds();
    long attempted = 0;
    while (attempted < clients) {
        long due = (long)((now_seconds() - begin) * (double)ramp) + 1;
        while (attempted < clients && attempted < due) start_connect(&all[attempted++]);
        serve_events(events, 5);
    }
    double settle = now_seconds() + 5;
    for (;;) {
        long pending = 0;
        for (long i = 0; i < clients; i++) pending += all[i].state == CONNECTING || all[i].state == HANDSHAKE;
        if (pending == 0 || now_seconds() > settle) break;
        serve_events(events, 10);
    }
    for (long i = 0; i < clients; i++)
        if (all[i].state == CONNECTING || all[i].state == HANDSHAKE) close_client(&all[i], "handshake_timeout");
    for (double until = now_seconds() + 1; now_seconds() < until;) serve_events(events, 10);

    /* The measured window. */
    double cpu_start = process_cpu(), server_start = server_pid ? server_cpu(server_pid) : -1;
    double window_start = now_seconds(), window_end = window_start + seconds;
    stats.measuring = 1;
    fprintf(stderr, "measuring\n");  /* for a caller that reads other processes' CPU over the window */
    fflush(stderr);
    while (now_seconds() < window_end) serve_events(events, 10);
    stats.measuring = 0;
    fprintf(stderr, "measured\n");
    fflush(stderr);
    double elapsed = now_seconds() - window_start;
    double cpu = process_cpu() - cpu_start;
    double server_used = server_pid ? server_cpu(server_pid) - server_start : -1;

    long open = 0;
    for (long i = 0; i < clients; i++) open += all[i].state == OPEN;
    long long span = stats.frames + stats.skipped;
    printf("{\"clients\":%ld,\"open\":%ld,\"seconds\":%.3f,\"frames\":%lld,\"fps\":%.2f,\"skipped\":%lld,"
           "\"skipRatio\":%.5f,\"fulls\":%lld,\"ageP50Ms\":%.1f,\"ageP99Ms\":%.1f,\"ageMaxMs\":%.1f,"
           "\"clientCpuUsPerFrame\":%.2f,\"clientCpuPercent\":%.1f",
           clients, open, elapsed, stats.frames, open ? (double)stats.frames / (double)open / elapsed : 0.0,
           stats.skipped, span ? (double)stats.skipped / (double)span : 0.0, stats.fulls, age_percentile_ms(0.50),
           age_percentile_ms(0.99), stats.age_max * 1000, stats.frames ? cpu * 1e6 / (double)stats.frames : 0.0,
           100 * cpu / elapsed);
    if (server_pid && server_start >= 0 && server_used >= 0)
        printf(",\"serverCpuUsPerClientFrame\":%.2f,\"serverCpuPercent\":%.1f,\"serverPeakRssMiB\":%.1f",
               stats.frames ? server_used * 1e6 / (double)stats.frames : 0.0, 100 * server_used / elapsed,
               server_peak_rss_mib(server_pid));
    printf(",\"errors\":{");
    for (int i = 0; i < REASONS && errors[i].reason; i++) printf("%s\"%s\":%ld", i ? "," : "", errors[i].reason, errors[i].count);
    printf("}}\n");
    return 0;
}
