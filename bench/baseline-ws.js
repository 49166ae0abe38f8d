#!/usr/bin/env node
// The fan-out baseline of bench (d): a Node.js broadcaster on Debian's `ws` module that replays
// frames recorded from `layercast serve` (bench/record_frames.py) to every client at 30 fps,
// speaking just enough `layercast.v1` for `layercast loadtest --role spectator` to count frames.
//
//   node bench/baseline-ws.js PORT RECORDING.json
//
// - Accepts `/ws?…` on 127.0.0.1 with subprotocol `layercast.v1`, no permessage-deflate; sends
//   the recorded `welcome` (its `time` set to the media time now) and answers `ping` with `pong`.
// - Each tick it takes the next recorded frame, looping: position 0 is the recording's first,
//   full, frame, then its deltas. `n` and `t` are rewritten once per tick (n counts ticks, t is
//   seconds since start), like our server encoding once per room.
// - A client gets a delta only when it got the frame before; otherwise (just joined, or skipped)
//   it waits for a tick whose full frame was recorded and gets that. A client whose socket still
//   holds more than 32 KiB unsent is skipped this tick (latest wins, as in our server, which reads
//   the kernel's unsent bytes instead). A client skipped that way for 10 s (our server's default
//   --stall-timeout) is closed.
'use strict';

const fs = require('fs');
const { WebSocketServer } = require('/usr/share/nodejs/ws');

const [port, recordingPath] = process.argv.slice(2);
if (!port || !recordingPath) {
  console.error('usage: node baseline-ws.js PORT RECORDING.json');
  process.exit(64);
}
const recording = JSON.parse(fs.readFileSync(recordingPath, 'utf8'));
const frames = recording.frames;
const fulls = recording.fulls;
const FPS = 30;
const UNSENT_LIMIT = 32 * 1024;
const STALL_SECONDS = 10;
const TEXT = { binary: false };  // a Buffer goes out as a binary frame unless told otherwise
const HEAD = /^\{"type":"frame","n":\d+,"t":[^,]+,/;
const start = process.hrtime.bigint();
const mediaTime = () => Number(process.hrtime.bigint() - start) / 1e9;

// Each client: { ws, last: tick number of the last frame it got, or -1; sentAt: media time of
// that frame, or of the connection }.
const clients = new Set();

const server = new WebSocketServer({
  host: '127.0.0.1',
  port: Number(port),
  backlog: 4096,
  perMessageDeflate: false,
  clientTracking: false,
  maxPayload: 64 * 1024,
  verifyClient: (info) => info.req.url.startsWith('/ws?') || info.req.url === '/ws',
  handleProtocols: (protocols) => (protocols.has('layercast.v1') ? 'layercast.v1' : false),
});

server.on('connection', (ws) => {
  const client = { ws, last: -1, sentAt: mediaTime() };
  clients.add(client);
  ws.send(recording.welcome.replace(/"time":[-0-9.eE+]+/, `"time":${mediaTime().toFixed(6)}`));
  ws.on('message', (data) => {
    let message;
    try { message = JSON.parse(data); } catch { return; }
    if (message && message.type === 'ping') {
      const pong = { type: 'pong', time: Number(mediaTime().toFixed(6)) };
      if (typeof message.id === 'number') pong.id = message.id;
      ws.send(JSON.stringify(pong));
    }
  });
  ws.on('close', () => clients.delete(client));
  ws.on('error', () => clients.delete(client));
});

/// The recorded text with this tick's `n` and `t`, as one Buffer shared by every client.
function stamped(text, tick, time) {
  return Buffer.from(text.replace(HEAD, `{"type":"frame","n":${tick},"t":${time.toFixed(6)},`));
}

let tick = 0;
function broadcast() {
  const position = tick % frames.length;
  const time = mediaTime();
  const next = stamped(frames[position], tick, time);  // position 0: the recording's full frame
  const fullText = position === 0 ? frames[0] : fulls[String(position)];
  const full = fullText === undefined ? null : stamped(fullText, tick, time);
  for (const client of clients) {
    const ws = client.ws;
    if (ws.readyState !== 1) continue;
    if (ws.bufferedAmount > UNSENT_LIMIT) {
      if (time - client.sentAt > STALL_SECONDS) ws.terminate();
      continue;
    }
    if (client.last === tick - 1 || position === 0) {
      ws.send(next, TEXT);
      client.last = tick;
      client.sentAt = time;
    } else if (full !== null) {
      ws.send(full, TEXT);
      client.last = tick;
      client.sentAt = time;
    }
  }
}

// Ticks on a fixed schedule from the start; when late by more than a tick, skips the missed ones.
function scheduleTick() {
  tick += 1;
  const now = Number(process.hrtime.bigint() - start) / 1e6;
  let due = (tick * 1000) / FPS;
  if (due < now - 1000 / FPS) {
    tick = Math.ceil((now * FPS) / 1000);
    due = (tick * 1000) / FPS;
  }
  setTimeout(() => { broadcast(); scheduleTick(); }, Math.max(0, due - now));
}
scheduleTick();

for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(0));
