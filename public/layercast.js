/**
 * Layercast browser client: `mount(element, options)` shows one room of a scene in `element`
 * and sends the viewer's taps and drags to the server. Protocol: docs/protocol.md.
 */
import { AssetStore } from './lib/assets.js';
import { Connection } from './lib/connection.js';
import { Emitter } from './lib/emitter.js';
import { loadFont, fontReady } from './lib/font.js';
import { unsupportedReason } from './lib/features.js';
import { FrameStore } from './lib/frame-store.js';
import { interpolateItems } from './lib/interpolate.js';
import { letterbox } from './lib/letterbox.js';
import { MediaClock } from './lib/media-clock.js';
import { holdsLiveRecord } from './lib/particle-record.js';
import { paint } from './lib/paint.js';
import { PointerInput } from './lib/pointer.js';
import { RateMeter } from './lib/rate-meter.js';
import { pageFrames, RedrawLoop } from './lib/redraw-loop.js';
import { Renderer } from './lib/renderer.js';
import { sameItems } from './lib/same-items.js';
import { serverUrls } from './lib/server-url.js';
import { Surface } from './lib/surface.js';
import { WorkerRenderer } from './lib/worker-renderer.js';

/** Two frames further apart than this (seconds) are not interpolated: the newer one is shown. */
const MAX_INTERPOLATION_GAP = 1;

/**
 * Mounts a view of a Layercast room in `element` (which should have a size; if it has a
 * width but no height, it gets the scene's aspect ratio).
 *
 * @param {HTMLElement} element
 * @param {object} options
 * @param {string} options.scene scene id (required)
 * @param {string} [options.room] room name, default `lobby`
 * @param {string} [options.role] `player` (default) or `spectator` (sends no input)
 * @param {string} [options.server] http(s) or ws(s) URL of the server; default the page's origin
 * @param {string} [options.token] a player's signed token (protocol.md, "Player tokens"); used
 *   instead of `player` when both are given
 * @param {string} [options.player] an anonymous player's secret id (`anon-…`) to play as; without
 *   it (and without a token) the server makes one up and tells it in `welcome.player.secret`.
 *   Either way reconnects use the same secret, so a reconnecting player
 *   keeps its public id and total. Keep the secret private: others see only `welcome.player.id`
 * @param {boolean} [options.overlay] show fps, frame age and bytes/s; default: the page URL has `overlay=1`
 * @param {boolean | ((status: object) => string)} [options.veil] while the connection is down after
 *   frames were shown, the stage is dimmed and says "Reconnecting… (attempt n)" (default); a
 *   function gives the words for a status (`{connected, attempt?, retryInMs?, stopped?}`, e.g. in
 *   the page's language); false turns the veil off. A server whose `welcome` announces a protocol
 *   or feature this page cannot draw, or lacks one it needs (`births`; lib/features.js), stops
 *   the view: an `error` with code `unsupported_protocol`, and the veil says why instead of any
 *   frame being drawn
 * @returns {LayercastHandle}
 *
 * @typedef {object} LayercastHandle
 * @property {() => void} destroy closes the connection and removes the canvas and listeners
 * @property {(event: string, fn: Function) => () => void} on listens for `welcome`, `frame`,
 *   `event` (scene events), `error` (server `error` messages), `status` ({connected, retryInMs?, stopped?})
 *   or `draw` ({at}: a picture is on the canvas, `at` its `performance.now()`; none while nothing
 *   changed); returns a function that removes the listener
 * @property {() => object} stats {connected, framesReceived, lastFrameNumber, fps, frameAgeMs, bytesPerSecond}
 * @property {() => object[]} items a copy of the display list as shown at the current view time
 * @property {() => number | null} viewTime the room media time being shown (null before the first frame)
 * @property {() => {time: number, estimated: boolean} | null} mediaTime the room's media time now,
 *   from the page's clock and the last frames: it keeps running while disconnected, when it is
 *   an estimate (`estimated`), so countdowns can go on (null before the first frame)
 * @property {() => {connected: boolean, attempt: number, retryInMs?: number, stopped?: string}} connection
 *   the connection's state: `attempt` counts the reconnect attempts since the last welcome
 * @property {(x: number, y: number) => {x: number, y: number} | null} sceneToPage the viewport
 *   (clientX/clientY) position of a scene point, null before the welcome
 * @property {(message: object) => boolean} send sends a raw protocol message; false when not connected
 * @property {() => object | null} player who the server takes this player to be, from the latest
 *   `welcome.player` ({id, name, total[, secret]}, total as of that join; null before it and for spectators)
 * @property {(path: string) => string} url the absolute http(s) URL of `path` on the server
 *   (e.g. `api/rooms/lobby/leaderboard`; resolved against the server's base, prefix included)
 */
export function mount(element, options = {}) {
  const { scene, room = 'lobby', role = 'player', server = '', token = '' } = options;
  if (!scene) throw new TypeError('layercast mount: options.scene is required');
  const query = new URLSearchParams(location.search);
  const overlay = options.overlay ?? query.get('overlay') === '1';
  let player = options.player || '';
  const urls = serverUrls(server, { scene, room, role, token, player });

  const emitter = new Emitter();
  const store = new FrameStore();
  const clock = new MediaClock();
  const assets = new AssetStore();
  const drawn = new RateMeter();
  const received = new RateMeter();
  let welcome = null;
  /** Why this page cannot draw the server's frames (features.js), or null. */
  let refusal = null;
  /** Whether the server takes `ack` messages (`welcome.features`): then each frame applied is acknowledged. */
  let acks = false;
  let framesReceived = 0;
  let shownTime = null;
  /** The items and path table of the last settled view drawn (null after any other draw). */
  let drawnItems = null;
  let drawnPaths = null;
  let restoreAspect = null;
  let connectionState = { connected: false, attempt: 0 };
  /** Whether the shipped font has loaded (or given up): no frame is drawn before. */
  let fontSettled = false;
  /** Whether the shipped face has loaded on this page (the render worker then waits for its own). */
  let faceLoaded = false;
  /** Whether the shipped face was ready when the first frame was drawn (null before it). */
  let fontAtFirstFrame = null;
  const veil = options.veil ?? true;

  // A resize blanks the canvas: draw at once (not a frame later), and go on if the view moves.
  const surface = new Surface(element, () => {
    if (draw(performance.now())) loop.invalidate();
  });
  // Drawn in a worker where the browser can (`?renderer=main` keeps it on the page's thread), in
  // the worker's animation frames once it holds the canvas.
  let renderer = null;
  let worker = null;
  const loop = new RedrawLoop(draw, {
    request: (tick) => (worker ? worker.requestFrame(tick) : pageFrames.request(tick)),
    cancel: (handle) => (worker ? worker.cancelFrame(handle) : pageFrames.cancel(handle)),
  });
  // `?rasterise=0`: bench only (bench/client.py --raster off), everything but the pixels.
  const rasterise = query.get('rasterise') !== '0';
  if (WorkerRenderer.wanted(location.search)) worker = startWorker();
  if (!worker) renderer = new Renderer(surface.canvas, assets, { rasterise });

  const connection = new Connection(urls.socket, {
    onMessage(message, bytes) {
      const now = performance.now();
      received.add(now, bytes);
      switch (message.type) {
        case 'welcome':
          welcome = message;
          refusal = unsupportedReason(message);
          if (refusal) {
            // Items this page does not know would be drawn as nonsense: stop, and say why.
            connection.close();
            connectionState = { connected: false, stopped: 'unsupported_protocol', reason: refusal };
            surface.canvas.dataset.connection = 'stopped';
            emitter.emit('error', { type: 'error', code: 'unsupported_protocol', message: refusal });
            emitter.emit('status', { connected: false, stopped: 'unsupported_protocol' });
            loop.invalidate();
            return;
          }
          acks = message.features?.includes('acks') ?? false;
          // A scene that takes no drags has a tap in every press: it leaves as the pointer goes down.
          if (pointer) pointer.tapOnDown = !message.interactions?.includes('drag');
          keepIdentity(message.player);
          assets.update(message.assets, urls.http);
          worker?.setAssets(Object.fromEntries(assets.table), assets.images);
          redrawWhenLoaded();
          store.expectFull();
          fitAspect();
          loop.invalidate();
          emitter.emit('welcome', message);
          break;
        case 'frame':
          if (refusal) return;
          if (!store.apply(message, now, 1 / (welcome?.fps || 30))) {
            store.expectFull();
            connection.reconnect();
            return;
          }
          framesReceived += 1;
          // The server bounds the frames in flight by these, so a slow link sees fresh frames.
          if (acks) connection.send({ type: 'ack', n: message.n });
          clock.observe(message.t, now);
          if (!sameItems(drawnItems, store.latest.items) || drawnPaths !== store.latest.paths) loop.invalidate();
          emitter.emit('frame', message);
          break;
        case 'event':
          emitter.emit('event', message);
          break;
        case 'error':
          emitter.emit('error', message);
          break;
      }
    },
    onStatus(status) {
      connectionState = { ...status, attempt: status.connected ? 0 : status.attempt ?? connectionState.attempt };
      surface.canvas.dataset.connection = status.connected ? 'connected' : status.stopped ? 'stopped' : 'reconnecting';
      emitter.emit('status', status);
      loop.invalidate(); // the veil shows, changes or goes
    },
  });
  surface.canvas.dataset.connection = 'connecting';
  loadFont().then(() => {
    fontSettled = true;
    loop.invalidate();
  });

  const pointer = role === 'spectator' ? null : new PointerInput(surface.canvas, {
    stamp: () => viewTime(performance.now()),
    onTap: (gesture) => sendInput({ type: 'tap' }, gesture),
    onDrag: (phase, gesture) => sendInput({ type: 'drag', phase }, gesture),
  });

  /** Sends a tap or drag at the gesture's scene position, stamped with its view time. */
  function sendInput(message, { clientX, clientY, stamp }) {
    const point = pageToScene(clientX, clientY);
    if (!point || stamp === null) return;
    connection.send({ ...message, x: round(point.x, 1e2), y: round(point.y, 1e2), viewTime: round(stamp, 1e6) });
  }

  /**
   * Makes later reconnects join as the anonymous player the server made up for a join that
   * brought no id (`welcome.player.secret`), so the player keeps its total; a passed id or a
   * token is kept as it is.
   */
  function keepIdentity(who) {
    if (token || role === 'spectator' || typeof who?.secret !== 'string' || who.secret === player) return;
    player = who.secret;
    connection.url = serverUrls(server, { scene, room, role, player }).socket;
  }

  /** The scene's rect in the canvas, in CSS pixels (null before the welcome). */
  function layout() {
    return welcome ? letterbox(welcome.size, surface.cssWidth, surface.cssHeight) : null;
  }

  /** The render worker, or null when the browser refuses it (this module imported from another origin). */
  function startWorker() {
    try {
      return new WorkerRenderer(surface, {
        rasterise,
        onPainted: () => painted(performance.now()),
        onInvalidate: () => loop.invalidate(),
        onFailed: () => { // its script did not load: draw on the page's thread from now on
          worker = null;
          renderer = new Renderer(surface.canvas, assets, { rasterise });
          loop.invalidate();
        },
      });
    } catch {
      return null;
    }
  }

  /** Draws again when each asset image that is still loading arrives. */
  function redrawWhenLoaded() {
    for (const { image, ready } of assets.images.values()) {
      if (ready) continue;
      // The worker says when the image has reached it (onInvalidate).
      image.addEventListener('load', () => (worker ? worker.sendImages(assets.images) : loop.invalidate()), { once: true });
    }
  }

  /** The room's frame interval in seconds (its fps from the welcome, 30 before it). */
  function frameInterval() {
    return 1 / (welcome?.fps || 30);
  }

  /** The frame the view interpolates from towards the latest (the one before it, if near enough), or null. */
  function interpolatedFrom() {
    const { previous, latest } = store;
    return previous && latest.t > previous.t && latest.t - previous.t <= MAX_INTERPOLATION_GAP ? previous : null;
  }

  /**
   * The media time shown at wall time `now` (one frame interval behind the clock, never going
   * back, within the two frames interpolated between), or null before the first frame. Cheap:
   * a tap is stamped with it.
   */
  function viewTime(now) {
    const { latest } = store;
    if (!latest) return null;
    const from = interpolatedFrom();
    let time = Math.max(clock.now(now) - frameInterval(), shownTime ?? -Infinity);
    time = Math.min(Math.max(time, from ? from.t : latest.t), latest.t);
    shownTime = time;
    return time;
  }

  /**
   * What to show at wall time `now`: `{time, particleTime, items, paths, moving}`, or null before
   * the first frame (`moving`: between two frames that differ, or a particle record alive, so a
   * later time shows something else). The view time is one frame interval of the room behind the
   * estimated media time, never going back, and within the two latest frames; items are
   * interpolated between them. Particle records are evaluated at `particleTime`, the same but not
   * held at the latest frame's time: with sparse frames, particles move on between frames.
   */
  function view(now) {
    const time = viewTime(now);
    if (time === null) return null;
    const { latest } = store;
    const from = interpolatedFrom();
    const f = from ? (time - from.t) / (latest.t - from.t) : 1;
    // While f < 1 the list is the older frame's items, whose paths are in the older frame's table.
    const paths = from && f < 1 ? from.paths : latest.paths;
    const items = interpolateItems(from?.items ?? null, latest.items, f);
    const particleTime = Math.max(time, clock.now(now) - frameInterval());
    const moving = (f < 1 && !(sameItems(from.items, latest.items) && from.paths === latest.paths))
      || holdsLiveRecord(items, particleTime);
    return { time, particleTime, items, paths, moving };
  }

  /**
   * Draws the current view (and the overlay) at wall time `now`.
   * @returns {boolean} whether the view is still changing (interpolating, live particles, or the overlay's figures)
   */
  function draw(now) {
    const box = layout();
    const dpr = surface.dpr;
    const shown = view(now);
    const device = box
      ? { scale: box.scale * dpr, x: box.x * dpr, y: box.y * dpr, width: box.width * dpr, height: box.height * dpr }
      : { scale: 0, x: 0, y: 0, width: 0, height: 0 };
    drawnItems = drawnPaths = null;
    const picture = { items: [], device, veil: false, overlay: null };
    if (fontSettled) { // no frame in a fallback font
      Object.assign(picture, { items: refusal ? [] : shown?.items ?? [], paths: shown?.paths, time: shown?.particleTime });
      if (overlay) picture.overlay = { dpr, stats: stats(now) };
      // A settled view shows the latest frame (or one with the same items): a frame with them again is not drawn.
      if (shown && !shown.moving && !refusal) ({ items: drawnItems, paths: drawnPaths } = store.latest);
      if (shown && fontAtFirstFrame === null) fontAtFirstFrame = fontReady();
      // The veil dims the stage and says why (reconnecting, stopped) while the connection is down.
      if ((shown || refusal) && veil && !connectionState.connected) {
        picture.veil = (typeof veil === 'function' ? veil(connectionState) : veilText(connectionState)) || '';
      }
    }
    if (worker) {
      faceLoaded ||= fontSettled && fontReady();
      worker.paint({ ...picture, fontReady: faceLoaded, canvasWidth: surface.width, canvasHeight: surface.height });
    } else {
      paint(renderer, picture);
      painted(now);
    }
    return fontSettled && (overlay || Boolean(shown?.moving));
  }

  /** Counts a picture put on the canvas at wall time `now`, and tells the `draw` listeners. */
  function painted(now) {
    drawn.add(now);
    emitter.emit('draw', { at: now });
  }

  /** Draws only while the page is visible (once when it shows again); the connection stays open either way. */
  function onVisibility() {
    loop.setHidden(document.hidden);
  }

  /** Gives an element with a width but no height the scene's aspect ratio. */
  function fitAspect() {
    if (restoreAspect !== null || !element.clientWidth || element.clientHeight) return;
    restoreAspect = element.style.aspectRatio;
    element.style.aspectRatio = `${welcome.size.width} / ${welcome.size.height}`;
  }

  /** The scene point under the viewport position (clientX, clientY), or null before the welcome. */
  function pageToScene(clientX, clientY) {
    const box = layout();
    if (!box?.scale) return null;
    const rect = surface.canvas.getBoundingClientRect();
    return { x: (clientX - rect.left - box.x) / box.scale, y: (clientY - rect.top - box.y) / box.scale };
  }

  /** The handle's `stats()` at wall time `now`. */
  function stats(now = performance.now()) {
    return {
      connected: connection.connected,
      framesReceived,
      lastFrameNumber: store.latest?.n ?? null,
      fps: Math.round(drawn.perSecond(now)),
      frameAgeMs: store.latest ? Math.max(0, Math.round(now - store.latest.receivedAt)) : null,
      bytesPerSecond: Math.round(received.perSecond(now)),
      fontAtFirstFrame,
    };
  }

  document.addEventListener('visibilitychange', onVisibility);
  onVisibility();
  connection.start();

  return {
    destroy() {
      connection.close();
      loop.stop();
      document.removeEventListener('visibilitychange', onVisibility);
      pointer?.destroy();
      worker?.destroy();
      surface.destroy();
      if (restoreAspect !== null) element.style.aspectRatio = restoreAspect;
      emitter.clear();
    },
    on: (event, fn) => emitter.on(event, fn),
    stats: () => stats(),
    items: () => JSON.parse(JSON.stringify(view(performance.now())?.items ?? [])),
    viewTime: () => view(performance.now())?.time ?? null,
    mediaTime() {
      const time = clock.now(performance.now());
      return time === null ? null : { time, estimated: !connection.connected };
    },
    connection: () => ({ ...connectionState }),
    sceneToPage(x, y) {
      const box = layout();
      if (!box) return null;
      const rect = surface.canvas.getBoundingClientRect();
      return { x: rect.left + box.x + x * box.scale, y: rect.top + box.y + y * box.scale };
    },
    send: (message) => connection.send(message),
    player: () => (welcome?.player ? { ...welcome.player } : null),
    url: (path) => new URL(String(path).replace(/^\/+/, ''), urls.http).href,
  };
}

/** The veil's default words for a connection state (English). */
function veilText(status) {
  if (status.reason) return status.reason;
  if (status.stopped) return status.stopped === 'closed' ? 'Disconnected' : 'Cannot connect';
  return status.attempt > 0 ? `Reconnecting… (attempt ${status.attempt})` : 'Reconnecting…';
}

/** `value` rounded to a multiple of 1/`per`. */
function round(value, per) {
  return Math.round(value * per) / per;
}
