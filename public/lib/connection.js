import { Backoff } from './backoff.js';
import { utf8Length } from './utf8-length.js';

/** The WebSocket subprotocol of protocol version 1. */
const SUBPROTOCOL = 'layercast.v1';

/** The close code of a node that gave its room up or cannot reach its cluster: come back at once. */
const RESTART = 1012;

/** Error codes after which joining again (with the same URL) cannot succeed, so reconnecting stops. */
const FATAL_CODES = new Set(['unknown_scene', 'bad_room', 'bad_role', 'bad_token', 'token_required', 'bad_player']);

/**
 * One viewer's WebSocket to a room, kept open: it reconnects with jittered exponential backoff
 * (at once, briefly jittered, after a close 1012; to `url`, so the same scene, room, role and identity; the owner may change `url` between
 * attempts) until `close()` or a fatal `error`.
 *
 * Callbacks:
 * - `onMessage(message, bytes)` for each JSON object received (`bytes`: its UTF-8 size);
 * - `onStatus({connected, retryInMs?, attempt?, stopped?})` when the state changes: `connected` is true
 *   from a `welcome` until the socket closes; `retryInMs` is the wait before the next attempt,
 *   `attempt` its number (1, 2, … since the last welcome);
 *   `stopped` is the error code that ended reconnecting.
 */
export class Connection {
  /**
   * @param {string} url the ws(s) URL with the join query
   * @param {{onMessage: Function, onStatus: Function, backoff?: Backoff}} handlers
   */
  constructor(url, { onMessage, onStatus, backoff = new Backoff() }) {
    this.url = url;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.backoff = backoff;
    this.socket = null;
    this.retryTimer = 0;
    this.connected = false;
    this.stopped = null; // error code that stopped reconnecting, or 'closed'
  }

  /** Opens the socket (once; later ones are opened by reconnecting). */
  start() {
    if (!this.socket && !this.stopped) this.open();
  }

  /** Sends `message` as JSON text; returns false when there is no open socket. */
  send(message) {
    if (this.socket?.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  /** Drops the current socket and joins again after the next backoff delay (e.g. after a missed frame). */
  reconnect() {
    if (this.stopped || !this.socket) return;
    this.detach(4000, 'resync');
    this.connected = false;
    this.scheduleRetry();
  }

  /** Closes for good: no more messages, status changes or reconnects. */
  close() {
    this.stopped = 'closed';
    this.connected = false;
    clearTimeout(this.retryTimer);
    this.detach(1000, 'closed');
  }

  /** Opens a socket and wires its events. */
  open() {
    const socket = new WebSocket(this.url, SUBPROTOCOL);
    this.socket = socket;
    socket.onmessage = (event) => this.receive(event.data);
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.connected = false;
      if (!this.stopped) this.scheduleRetry(event.code === RESTART);
    };
  }

  /** Parses and dispatches one text message; a `welcome` marks the join as successful. */
  receive(data) {
    if (typeof data !== 'string') return;
    let message;
    try {
      message = JSON.parse(data);
    } catch {
      return;
    }
    if (message === null || typeof message !== 'object') return;
    if (message.type === 'welcome') {
      this.backoff.reset();
      this.connected = true;
      this.onStatus({ connected: true });
    }
    this.onMessage(message, utf8Length(data));
    if (message.type === 'error' && FATAL_CODES.has(message.code) && !this.stopped) {
      this.stopped = message.code;
      this.onStatus({ connected: false, stopped: message.code });
    }
  }

  /** Forgets the current socket (its events no longer reach us) and closes it. */
  detach(code, reason) {
    const socket = this.socket;
    this.socket = null;
    if (!socket) return;
    socket.onmessage = socket.onclose = null;
    // Closing a socket that is still connecting makes browsers log an error; close it once open.
    if (socket.readyState === WebSocket.CONNECTING) socket.onopen = () => socket.close(code, reason);
    else socket.close(code, reason);
  }

  /** Waits the next backoff delay (a short one when `soon`), then opens a new socket. */
  scheduleRetry(soon = false) {
    const delay = soon ? this.backoff.soon() : this.backoff.next();
    this.onStatus({ connected: false, retryInMs: Math.round(delay), attempt: this.backoff.attempt });
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      if (!this.stopped) this.open();
    }, delay);
  }
}
