/* The send-only floor of the fan-out bench (bench/peers.py): the least a WebSocket broadcaster
 * of this design costs on this machine.
 *
 *   cc -O2 -o floor bench/floor.c && ./floor PORT [BYTES]
 *
 * - Listens on 127.0.0.1:PORT and accepts any `GET` with `Sec-WebSocket-Key` (answers 101 with
 *   its Sec-WebSocket-Accept, SHA-1 and base64 written here; echoes `layercast.v1` when offered).
 * - Each tick, 30 times a second on a fixed schedule (missed ticks are skipped), it builds one
 *   unmasked text frame of BYTES payload bytes (default 475, a radar delta) that starts like a
 *   Layercast frame, `{"type":"frame","n":N,"t":T,"full":false,…` (N counts ticks, T is seconds
 *   since start), and sends it to each client with one non-blocking `send`. Nothing else: no
 *   welcome, no per-client encoding, incoming bytes are read and dropped.
 * - Sockets get TCP_NOTSENT_LOWAT 32 KiB, so a send is refused once 32 KiB are unsent, as our
 *   server's rule. A refused send skips that client this tick (latest wins); the rest of a
 *   partial send is finished on EPOLLOUT before the client gets another frame.
 * - A client that has taken no whole frame for 10 s while frames were due is closed (our
 *   server's default --stall-timeout).
 * Runs until SIGINT or SIGTERM. Every loop is bounded by the clients and bytes at hand.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#define FPS 30
#define UNSENT_LIMIT (32 * 1024)
#define STALL_SECONDS 10.0
#define REQUEST_MAX 4096
#define PAYLOAD_MAX 60000

enum state { FREE, HANDSHAKE, OPEN };

struct client {
    enum state state;
    int live_index;          /* position in `live` while OPEN */
    char *request;           /* the handshake request so far (HANDSHAKE) */
    size_t request_len;
    size_t pending_offset;   /* bytes of `pending_frame` sent; pending when < pending_len */
    size_t pending_len;
    uint8_t *pending_frame;  /* a copy of the frame a partial send left unfinished */
    double last_whole;       /* when the client last took a whole frame (or opened) */
};

static struct client *clients;
static int *live, live_count, max_fd, epoll_fd;
static volatile sig_atomic_t stopping;

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* SHA-1 (FIPS 180-4) of a message shorter than 120 bytes: enough for a key and the GUID. */
static void sha1(const uint8_t *message, size_t length, uint8_t digest[20]) {
    uint8_t block[128] = {0};
    memcpy(block, message, length);
    block[length] = 0x80;
    size_t total = length + 9 <= 64 ? 64 : 128;
    uint64_t bits = (uint64_t)length * 8;
    for (int i = 0; i < 8; i++) block[total - 1 - i] = (uint8_t)(bits >> (8 * i));
    uint32_t h[5] = {0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0};
    for (size_t chunk = 0; chunk < total; chunk += 64) {
        uint32_t w[80];
        for (int i = 0; i < 16; i++)
            w[i] = (uint32_t)block[chunk + 4 * i] << 24 | (uint32_t)block[chunk + 4 * i + 1] << 16 |
                   (uint32_t)block[chunk + 4 * i + 2] << 8 | block[chunk + 4 * i + 3];
        for (int i = 16; i < 80; i++) {
            uint32_t x = w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16];
            w[i] = x << 1 | x >> 31;
        }
        uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
        for (int i = 0; i < 80; i++) {
            uint32_t f, k;
            if (i < 20) { f = (b & c) | (~b & d); k = 0x5A827999; }
            else if (i < 40) { f = b ^ c ^ d; k = 0x6ED9EBA1; }
            else if (i < 60) { f = (b & c) | (b & d) | (c & d); k = 0x8F1BBCDC; }
            else { f = b ^ c ^ d; k = 0xCA62C1D6; }
            uint32_t t = (a << 5 | a >> 27) + f + e + k + w[i];
            e = d; d = c; c = b << 30 | b >> 2; b = a; a = t;
        }
        h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e;
    }
    for (int i = 0; i < 20; i++) digest[i] = (uint8_t)(h[i / 4] >> (24 - 8 * (i % 4)));
}

static void base64(const uint8_t *in, size_t length, char *out) {
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t o = 0;
    for (size_t i = 0; i < length; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16 | (i + 1 < length ? (uint32_t)in[i + 1] << 8 : 0) |
                     (i + 2 < length ? in[i + 2] : 0);
        out[o++] = alphabet[v >> 18 & 63];
        out[o++] = alphabet[v >> 12 & 63];
        out[o++] = i + 1 < length ? alphabet[v >> 6 & 63] : '=';
        out[o++] = i + 2 < length ? alphabet[v & 63] : '=';
    }
    out[o] = 0;
}

/* The value of header `name` (case-insensitive) in `request`, copied into `out`; 0 if absent. */
static int header(const char *request, const char *name, char *out, size_t out_size) {
    size_t name_len = strlen(name);
    for (const char *line = strstr(request, "\r\n"); line && line[2] != '\r'; line = strstr(line + 2, "\r\n")) {
        const char *start = line + 2;
        if (strncasecmp(start, name, name_len) != 0 || start[name_len] != ':') continue;
        const char *value = start + name_len + 1;
        while (*value == ' ' || *value == '\t') value++;
        size_t len = strcspn(value, "\r");
        while (len > 0 && (value[len - 1] == ' ' || value[len - 1] == '\t')) len--;
        if (len >= out_size) return 0;
        memcpy(out, value, len);
        out[len] = 0;
        return 1;
    }
    return 0;
}

static void close_client(int fd) {
    struct client *c = &clients[fd];
    if (c->state == OPEN) {
        int last = live[--live_count];
        live[c->live_index] = last;
        clients[last].live_index = c->live_index;
    }
    free(c->request);
    free(c->pending_frame);
    memset(c, 0, sizeof *c);
    close(fd);
}

/* Answers a whole handshake request; 0 when the client was closed. */
static int answer_handshake(int fd) {
    struct client *c = &clients[fd];
    char key[128], protocols[256], accept[32], response[512];
    static const char guid[] = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
    if (strncmp(c->request, "GET ", 4) != 0 || !header(c->request, "Sec-WebSocket-Key", key, 64)) {
        static const char refusal[] = "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
        (void)!send(fd, refusal, sizeof refusal - 1, MSG_NOSIGNAL);
        close_client(fd);
        return 0;
    }
    uint8_t digest[20];
    strcat(key, guid);
    sha1((const uint8_t *)key, strlen(key), digest);
    base64(digest, 20, accept);
    int offered = header(c->request, "Sec-WebSocket-Protocol", protocols, sizeof protocols) &&
                  strstr(protocols, "layercast.v1") != NULL;
    int len = snprintf(response, sizeof response,
                       "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                       "Sec-WebSocket-Accept: %s\r\n%s\r\n", accept,
                       offered ? "Sec-WebSocket-Protocol: layercast.v1\r\n" : "");
    if (send(fd, response, (size_t)len, MSG_NOSIGNAL) != len) {
        close_client(fd);
        return 0;
    }
    free(c->request);
    c->request = NULL;
    c->state = OPEN;
    c->last_whole = now_seconds();
    c->live_index = live_count;
    live[live_count++] = fd;
    return 1;
}

static void readable(int fd) {
    struct client *c = &clients[fd];
    if (c->state == HANDSHAKE) {
        ssize_t got = recv(fd, c->request + c->request_len, REQUEST_MAX - 1 - c->request_len, 0);
        if (got <= 0) {
            if (got < 0 && errno == EAGAIN) return;
            close_client(fd);
            return;
        }
        c->request_len += (size_t)got;
        c->request[c->request_len] = 0;
        if (strstr(c->request, "\r\n\r\n")) answer_handshake(fd);
        else if (c->request_len == REQUEST_MAX - 1) close_client(fd);
        return;
    }
    static uint8_t sink[65536];
    ssize_t got = recv(fd, sink, sizeof sink, 0);
    if (got == 0 || (got < 0 && errno != EAGAIN && errno != EINTR)) close_client(fd);
}

/* Finishes a partial frame; on the last byte stops waiting for EPOLLOUT. */
static void writable(int fd) {
    struct client *c = &clients[fd];
    if (c->state != OPEN || c->pending_offset >= c->pending_len) return;
    ssize_t sent = send(fd, c->pending_frame + c->pending_offset, c->pending_len - c->pending_offset,
                        MSG_NOSIGNAL | MSG_DONTWAIT);
    if (sent < 0) {
        if (errno != EAGAIN && errno != EINTR) close_client(fd);
        return;
    }
    c->pending_offset += (size_t)sent;
    if (c->pending_offset == c->pending_len) {
        c->last_whole = now_seconds();
        struct epoll_event event = {.events = EPOLLIN, .data.fd = fd};
        epoll_ctl(epoll_fd, EPOLL_CTL_MOD, fd, &event);
    }
}

static void accept_all(int listener) {
    for (int i = 0; i < 1024; i++) {
        int fd = accept4(listener, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) return;
        if (fd >= max_fd) {
            close(fd);
            continue;
        }
        int lowat = UNSENT_LIMIT, one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NOTSENT_LOWAT, &lowat, sizeof lowat);
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        clients[fd].state = HANDSHAKE;
        clients[fd].request = malloc(REQUEST_MAX);
        clients[fd].request_len = 0;
        struct epoll_event event = {.events = EPOLLIN, .data.fd = fd};
        if (!clients[fd].request || epoll_ctl(epoll_fd, EPOLL_CTL_ADD, fd, &event) != 0) close_client(fd);
    }
}

/* Builds this tick's frame (header + payload of `size` bytes) into `frame`; returns its length. */
static size_t build_frame(uint8_t *frame, size_t size, long long tick, double t) {
    size_t head = size < 126 ? 2 : 4;
    frame[0] = 0x81;
    if (head == 2) {
        frame[1] = (uint8_t)size;
    } else {
        frame[1] = 126;
        frame[2] = (uint8_t)(size >> 8);
        frame[3] = (uint8_t)size;
    }
    char *text = (char *)frame + head;
    int prefix = snprintf(text, size + 1, "{\"type\":\"frame\",\"n\":%lld,\"t\":%.6f,\"full\":false,\"pad\":\"", tick, t);
    memset(text + prefix, 'x', size - (size_t)prefix - 2);
    memcpy(text + size - 2, "\"}", 2);
    return head + size;
}

static void broadcast(const uint8_t *frame, size_t length, double now) {
    for (int i = live_count - 1; i >= 0; i--) {  /* backwards: close_client moves the last into i */
        int fd = live[i];
        struct client *c = &clients[fd];
        if (c->pending_offset < c->pending_len) {  /* still finishing a partial frame: skip */
            if (now - c->last_whole > STALL_SECONDS) close_client(fd);
            continue;
        }
        ssize_t sent = send(fd, frame, length, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (sent == (ssize_t)length) {
            c->last_whole = now;
        } else if (sent > 0) {
            c->pending_frame = realloc(c->pending_frame, length);
            memcpy(c->pending_frame, frame, length);
            c->pending_offset = (size_t)sent;
            c->pending_len = length;
            struct epoll_event event = {.events = EPOLLIN | EPOLLOUT, .data.fd = fd};
            epoll_ctl(epoll_fd, EPOLL_CTL_MOD, fd, &event);
        } else if (errno == EAGAIN) {
            if (now - c->last_whole > STALL_SECONDS) close_client(fd);
        } else {
            close_client(fd);
        }
    }
}

static void stop(int signal_number) { (void)signal_number; stopping = 1; }

int main(int argc, char **argv) {
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: floor PORT [BYTES]\n");
        return 64;
    }
    int port = atoi(argv[1]);
    size_t size = argc == 3 ? (size_t)atol(argv[2]) : 475;
    if (port <= 0 || port > 65535 || size < 80 || size > PAYLOAD_MAX) {
        fprintf(stderr, "floor: PORT in 1…65535, BYTES in 80…%d\n", PAYLOAD_MAX);
        return 64;
    }
    struct rlimit limit;
    getrlimit(RLIMIT_NOFILE, &limit);
    limit.rlim_cur = limit.rlim_max;
    setrlimit(RLIMIT_NOFILE, &limit);
    max_fd = (int)(limit.rlim_cur > 1000000 ? 1000000 : limit.rlim_cur);
    clients = calloc((size_t)max_fd, sizeof *clients);
    live = calloc((size_t)max_fd, sizeof *live);
    uint8_t *frame = malloc(size + 4);
    if (!clients || !live || !frame) return 1;
    signal(SIGINT, stop);
    signal(SIGTERM, stop);
    signal(SIGPIPE, SIG_IGN);

    int listener = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0), one = 1;
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port),
                                  .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    if (bind(listener, (struct sockaddr *)&address, sizeof address) != 0 || listen(listener, 4096) != 0) {
        perror("floor: bind 127.0.0.1");
        return 1;
    }
    epoll_fd = epoll_create1(EPOLL_CLOEXEC);
    int timer = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    struct itimerspec period = {.it_interval = {0, 1000000000L / FPS}, .it_value = {0, 1000000000L / FPS}};
    timerfd_settime(timer, 0, &period, NULL);
    struct epoll_event event = {.events = EPOLLIN, .data.fd = listener};
    epoll_ctl(epoll_fd, EPOLL_CTL_ADD, listener, &event);
    event.data.fd = timer;
    epoll_ctl(epoll_fd, EPOLL_CTL_ADD, timer, &event);
    fprintf(stderr, "floor: 127.0.0.1:%d, %zu-byte frames at %d fps\n", port, size, FPS);

    double start = now_seconds();
    long long tick = 0;
    struct epoll_event events[256];
    while (!stopping) {
        int ready = epoll_wait(epoll_fd, events, 256, 1000);
        for (int i = 0; i < ready; i++) {
            int fd = events[i].data.fd;
            if (fd == listener) {
                accept_all(listener);
            } else if (fd == timer) {
                uint64_t expirations = 0;
                if (read(timer, &expirations, sizeof expirations) != sizeof expirations) continue;
                tick += (long long)expirations;  /* a late tick skips the missed ones */
                double now = now_seconds();
                broadcast(frame, build_frame(frame, size, tick, now - start), now);
            } else if (clients[fd].state != FREE) {
                if (events[i].events & (EPOLLERR | EPOLLHUP)) {
                    close_client(fd);
                    continue;
                }
                if (events[i].events & EPOLLOUT) writable(fd);
                if (clients[fd].state != FREE && (events[i].events & EPOLLIN)) readable(fd);
            }
        }
    }
    return 0;
}
