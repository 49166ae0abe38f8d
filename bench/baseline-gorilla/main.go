// The Go peer of the fan-out bench (bench/peers.py): gorilla/websocket (Debian's
// golang-github-gorilla-websocket-dev) replaying frames recorded from `layercast serve`
// (bench/record_frames.py) under the rules of bench/baseline-ws.js, each frame a PreparedMessage
// framed once per tick and written to every client.
//
//	GOPATH=/usr/share/gocode GO111MODULE=off go build -o baseline-gorilla bench/baseline-gorilla/main.go
//	./baseline-gorilla PORT RECORDING.json
//
//   - Accepts `/ws?…` on 127.0.0.1 with subprotocol `layercast.v1`, no permessage-deflate; sends
//     the recorded `welcome` (its `time` set to the media time now) and answers `ping` with `pong`.
//   - Each tick (30 fps on a fixed schedule; when late by more than a tick, the missed ticks are
//     skipped) takes the next recorded frame, looping: position 0 is the recording's first, full,
//     frame, then its deltas. `n` and `t` are rewritten once per tick (n counts ticks, t is
//     seconds since start) into one PreparedMessage shared by every client.
//   - A client gets a delta only when it got the frame before; otherwise (just joined, or
//     skipped) it waits for a tick whose full frame was recorded and gets that. Each client has
//     one writer goroutine; a client whose writer still holds its last frame (the kernel took
//     less than all of it) is skipped this tick: latest wins, nothing queues.
//   - A write that has not finished within 10 s (our server's default --stall-timeout) closes
//     the client.
package main

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"regexp"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/gorilla/websocket"
)

const (
	fps          = 30
	stallTimeout = 10 * time.Second
)

var (
	head     = regexp.MustCompile(`^\{"type":"frame","n":\d+,"t":[^,]+,`)
	welcomeT = regexp.MustCompile(`"time":[-0-9.eE+]+`)
	start    = time.Now()
)

type recording struct {
	Welcome string            `json:"welcome"`
	Frames  []string          `json:"frames"`
	Fulls   map[string]string `json:"fulls"`
}

type client struct {
	conn   *websocket.Conn
	frames chan *websocket.PreparedMessage // the frame handed to the writer; capacity 1
	pongs  chan []byte
	busy   atomic.Bool // the writer holds a frame not yet written whole
	last   int64       // tick of the last frame handed over (the ticker's alone)
}

var (
	mu      sync.Mutex
	clients = map[*client]struct{}{}
)

func mediaTime() float64 { return time.Since(start).Seconds() }

func remove(c *client) {
	mu.Lock()
	delete(clients, c)
	mu.Unlock()
	c.conn.Close()
}

// write is a client's only writer: frames from the ticker, pongs from its reader.
func (c *client) write(done <-chan struct{}) {
	defer remove(c)
	for {
		select {
		case pm := <-c.frames:
			c.conn.SetWriteDeadline(time.Now().Add(stallTimeout))
			err := c.conn.WritePreparedMessage(pm)
			c.busy.Store(false)
			if err != nil {
				return
			}
		case pong := <-c.pongs:
			c.conn.SetWriteDeadline(time.Now().Add(stallTimeout))
			if c.conn.WriteMessage(websocket.TextMessage, pong) != nil {
				return
			}
		case <-done:
			return
		}
	}
}

// read answers `ping` until the connection ends.
func (c *client) read(done chan<- struct{}) {
	defer close(done)
	for {
		_, data, err := c.conn.ReadMessage()
		if err != nil {
			return
		}
		var message struct {
			Type string   `json:"type"`
			ID   *float64 `json:"id"`
		}
		if json.Unmarshal(data, &message) != nil || message.Type != "ping" {
			continue
		}
		pong := map[string]any{"type": "pong", "time": mediaTime()}
		if message.ID != nil {
			pong["id"] = *message.ID
		}
		text, _ := json.Marshal(pong)
		select {
		case c.pongs <- text:
		default: // a client pinging faster than it reads gets fewer pongs
		}
	}
}

// stamped is the recorded text with this tick's n and t, prepared once for every client.
func stamped(text string, tick int64, t float64) *websocket.PreparedMessage {
	prefix := `{"type":"frame","n":` + strconv.FormatInt(tick, 10) + `,"t":` + strconv.FormatFloat(t, 'f', 6, 64) + `,`
	pm, err := websocket.NewPreparedMessage(websocket.TextMessage, []byte(head.ReplaceAllLiteralString(text, prefix)))
	if err != nil {
		panic(err)
	}
	return pm
}

func broadcast(rec *recording, tick int64) {
	position := int(tick % int64(len(rec.Frames)))
	t := mediaTime()
	next := stamped(rec.Frames[position], tick, t)
	var full *websocket.PreparedMessage
	if position == 0 {
		full = next
	} else if text, ok := rec.Fulls[strconv.Itoa(position)]; ok {
		full = stamped(text, tick, t)
	}
	mu.Lock()
	defer mu.Unlock()
	for c := range clients {
		if c.busy.Load() {
			continue
		}
		pm := full
		if c.last == tick-1 {
			pm = next
		}
		if pm == nil {
			continue
		}
		c.busy.Store(true)
		c.last = tick
		c.frames <- pm // never blocks: the writer took the previous frame before clearing busy
	}
}

func tickForever(rec *recording) {
	period := time.Second / fps
	for tick := int64(1); ; tick++ {
		due := time.Duration(tick) * period
		if now := time.Since(start); due < now-period {
			tick = int64((now + period - 1) / period)
			due = time.Duration(tick) * period
		}
		time.Sleep(time.Until(start.Add(due)))
		broadcast(rec, tick)
	}
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: baseline-gorilla PORT RECORDING.json")
		os.Exit(64)
	}
	raw, err := os.ReadFile(os.Args[2])
	if err != nil {
		panic(err)
	}
	var rec recording
	if err := json.Unmarshal(raw, &rec); err != nil || len(rec.Frames) == 0 {
		fmt.Fprintln(os.Stderr, "baseline-gorilla: not a recording:", err)
		os.Exit(65)
	}
	upgrader := websocket.Upgrader{
		ReadBufferSize:  512,
		WriteBufferSize: 512,
		WriteBufferPool: &sync.Pool{},
		Subprotocols:    []string{"layercast.v1"},
		CheckOrigin:     func(*http.Request) bool { return true },
	}
	http.HandleFunc("/ws", func(w http.ResponseWriter, r *http.Request) {
		conn, err := upgrader.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		welcome := welcomeT.ReplaceAllLiteralString(rec.Welcome, `"time":`+strconv.FormatFloat(mediaTime(), 'f', 6, 64))
		if conn.WriteMessage(websocket.TextMessage, []byte(welcome)) != nil {
			conn.Close()
			return
		}
		c := &client{conn: conn, frames: make(chan *websocket.PreparedMessage, 1), pongs: make(chan []byte, 4), last: -2}
		done := make(chan struct{})
		mu.Lock()
		clients[c] = struct{}{}
		mu.Unlock()
		go c.write(done)
		c.read(done)
	})
	listener, err := net.Listen("tcp", "127.0.0.1:"+os.Args[1])
	if err != nil {
		panic(err)
	}
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM)
	go func() { <-signals; os.Exit(0) }()
	go tickForever(&rec)
	panic(http.Serve(listener, nil))
}
