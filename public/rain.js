/**
 * rain.html?room=…[&role=spectator][&token=…][&server=…][&lang=en|zh][&overlay=1]: the
 * red-packet rain on a phone (protocol.md, "The red-packet rain").
 *
 * The canvas draws everything the server sends (countdown digits, falling packets, floating
 * labels); this page adds an HTML HUD beside it (above in portrait, to the left in landscape,
 * never over the packets' fall area): who the player is and their own coin total, the rain's
 * phase with a countdown (to the rain's start and end, and to the next rain when the server
 * says), a share button, the answer to each of the player's own taps at the tap point, toasts
 * for errors in plain words, and a results card with the room's leaderboard after each rain.
 * While the connection is down the stage dims and says "Reconnecting… (attempt n)"; the
 * countdowns go on from the last known server time, marked as estimates.
 *
 * Identity (protocol.md, "Player tokens"): a `token` in the page URL (signed by an embedding
 * app) is passed on and nothing is stored. Otherwise the page makes up a secret anonymous id
 * once (16 random bytes), keeps it in localStorage (`layercast.player`) and joins with it, so a
 * returning player keeps their total (reconnects reuse it too, see mount()). The id is a
 * credential: it is never shown; everyone, this page included, sees the public id (`p-…`) the
 * server derives from it.
 *
 * For tests: `window.layercastView` is the mounted view's handle; `window.rainState` is
 * `{player: {id (public), name} | null, total, phase, rain, lastTap, leaderboard, role, connected,
 * joins (welcomes received), results, errors, countdown: {kind, seconds, estimated} | null,
 * bumps (coin pill animations), announcements, attempt}`.
 */
import { mount } from './layercast.js';
import { documentLanguage, markChinese, pageLanguage, words } from './lib/words.js';

const STORAGE_KEY = 'layercast.player';
const ANONYMOUS_ID = /^anon-[A-Za-z0-9_-]{16,64}$/;
const TOAST_MS = 2600;
const LABEL_MS = 1100;
const LEADERBOARD_LIMIT = 10;
/** How often the HUD's countdown is redrawn (ms). */
const TICK_MS = 250;
/** After this many failed attempts without any socket opening, check whether the server is up. */
const REFUSAL_CHECK_ATTEMPTS = 3;

const params = new URLSearchParams(location.search);
const room = params.get('room') || 'lobby';
const role = params.get('role') || 'player';
const token = params.get('token') || '';
const server = params.get('server') || '';
const spectator = role === 'spectator';
const lang = pageLanguage();
const t = words(lang);
document.documentElement.lang = documentLanguage(lang);
const reducedMotion = matchMedia('(prefers-reduced-motion: reduce)');

const $ = (id) => document.getElementById(id);
const page = document.body;
const stage = $('stage');
const viewElement = $('view');
const hud = {
  name: $('hud-name'), coins: $('hud-coins'), total: $('hud-total'), state: $('hud-state'),
  progress: $('hud-progress'), bar: $('hud-progress-bar'), feed: $('hud-feed'), conn: $('hud-conn'),
  share: $('share'), shareText: $('share-text'),
};
const toast = $('toast');
const tapLabel = $('tap-label');
const announcer = $('announcer');
const results = {
  root: $('results'), close: $('results-close'), summary: $('results-summary'), mine: $('results-mine'),
  rows: $('results-rows'), note: $('results-note'), total: $('results-total'),
};

const state = {
  role,
  player: null,
  total: null,
  phase: null,
  rain: null,
  lastTap: null,
  leaderboard: null,
  results: null,
  connected: false,
  joins: 0,
  errors: [],
  countdown: null,
  bumps: 0,
  announcements: [],
  attempt: 0,
};
window.rainState = state;

/** Whether the phase came from a `rain` event (else it is guessed from the frames). */
let phaseFromEvents = false;
/** Coins this player won in the current rain (from its own `award` events). */
let rainCoins = 0;
let toastTimer = 0;
let labelTimer = 0;
let feedTimer = 0;
let progressFrame = 0;
let guessTimer = 0;
/** Bumped with each results view, so a slow leaderboard answer for an older one is dropped. */
let resultsGeneration = 0;
let handle = null;
/** Where the player last pressed on the stage (stage CSS pixels), for the tap answer. */
let lastPress = null;
/** Whether any socket of this page ever got a welcome (else failures may be a refusal). */
let everJoined = false;
let refusalChecked = false;

// ---------------------------------------------------------------------------------------------
// identity

/** The anonymous id kept from an earlier visit, or '' (none, unreadable or malformed). */
function storedPlayer() {
  try {
    const id = localStorage.getItem(STORAGE_KEY) || '';
    return ANONYMOUS_ID.test(id) ? id : '';
  } catch {
    return ''; // storage blocked (private mode, sandboxed frame): play as a new guest
  }
}

/** A new secret anonymous id: `anon-` and 22 base64url characters of 16 random bytes. */
function newPlayer() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  const base64 = btoa(String.fromCharCode(...bytes));
  return `anon-${base64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}`;
}

/** Keeps the anonymous id for the next visit (not when playing with a token). */
function storePlayer(id) {
  if (token || !ANONYMOUS_ID.test(id)) return;
  try {
    localStorage.setItem(STORAGE_KEY, id);
  } catch {
    // storage blocked: the id lasts as long as this page
  }
}

function forgetPlayer() {
  try {
    localStorage.removeItem(STORAGE_KEY);
  } catch {
    // nothing kept
  }
}
// ---------------------------------------------------------------------------------------------
// the view

/** Mounts the rain view, joining as `player` (or as the token's player, or as a new guest). */
function start(player) {
  handle?.destroy();
  state.connected = false;
  handle = mount(viewElement, {
    scene: 'rain', room, role, server, token: token || undefined, player: player || undefined,
    veil: (status) => (status.stopped ? (status.stopped === 'closed' ? t.disconnected : errorText(status.stopped)) : t.reconnecting(status.attempt ?? 0)),
  });
  window.layercastView = handle;
  handle.on('welcome', onWelcome);
  handle.on('event', onEvent);
  handle.on('error', (error) => onError(error, player));
  handle.on('status', onStatus);
  const stopGuessing = handle.on('frame', () => {
    stopGuessing();
    if (!phaseFromEvents) guessPhase();
  });
}

function onWelcome(welcome) {
  state.joins += 1;
  everJoined = true;
  stage.style.setProperty('--scene-w', String(welcome.size?.width || 414));
  stage.style.setProperty('--scene-h', String(welcome.size?.height || 736));
  if (welcome.player) {
    state.player = { id: welcome.player.id, name: welcome.player.name };
    state.total = welcome.player.total ?? 0;
    // The server names an anonymous id only when it made one up for a join that brought none.
    if (welcome.player.secret) storePlayer(welcome.player.secret);
  } else {
    state.player = null;
    state.total = null;
  }
  renderIdentity();
}

/** The plain words for an error code (never the code itself). */
function errorText(code) {
  return t.errors[code] ?? t.errorFallback;
}

function onError(error, player) {
  state.errors.push(error);
  if (error.code === 'bad_player' && player && !token) {
    // The kept id is refused (e.g. the server's rules changed): start over as a new guest.
    forgetPlayer();
    const fresh = newPlayer();
    storePlayer(fresh);
    start(fresh);
    return;
  }
  if (error.code === 'unknown_type' || error.code === 'bad_field' || error.code === 'bad_json') return; // ours, not the player's
  const text = errorText(error.code);
  showToast(text, 'info');
  announce(text);
}

function onStatus(status) {
  state.connected = Boolean(status.connected);
  state.attempt = status.connected ? 0 : status.attempt ?? state.attempt;
  page.classList.toggle('offline', !status.connected && state.joins > 0);
  if (status.connected) {
    hud.conn.hidden = true;
    hud.conn.textContent = '';
    renderCountdown();
    return;
  }
  hud.conn.hidden = false;
  if (status.stopped) hud.conn.textContent = status.stopped === 'closed' ? t.disconnected : errorText(status.stopped);
  else hud.conn.textContent = state.joins > 0 ? t.reconnecting(state.attempt) : t.connecting;
  if (state.joins > 0 && state.attempt === 1) announce(t.connectionLost);
  if (!everJoined && !refusalChecked && state.attempt >= REFUSAL_CHECK_ATTEMPTS) checkRefusal();
  renderCountdown();
}

/**
 * The socket never opened: when the server answers plain HTTP, it is up and refused this page
 * (its origin is not allowed, or it is full), so say so instead of reconnecting in silence.
 */
async function checkRefusal() {
  refusalChecked = true;
  try {
    // no-cors: the server may be another origin without CORS; any answer at all means it is up.
    await fetch(handle.url('healthz'), { cache: 'no-store', mode: 'no-cors' });
    if (everJoined) return;
    hud.conn.textContent = t.refused;
    announce(t.refused);
  } catch {
    // the server is down (or unreachable from here): keep saying "Reconnecting"
  }
}

function onEvent({ name, data }) {
  if (!data || typeof data !== 'object') return;
  switch (name) {
    case 'rain':
      onRain(data);
      break;
    case 'award':
      onAward(data);
      break;
    case 'tap':
      onTap(data);
      break;
  }
}

// ---------------------------------------------------------------------------------------------
// rain phases and countdowns

function onRain(data) {
  phaseFromEvents = true;
  clearTimeout(guessTimer);
  const phase = data.phase;
  const previous = state.phase;
  if (phase === 'countdown' || (phase === 'raining' && state.rain?.rain !== data.rain)) rainCoins = 0;
  state.rain = { ...(state.rain?.rain === data.rain ? state.rain : {}), ...data };
  setPhase(phase);
  if (phase === 'raining' && previous !== 'raining') announce(t.rainStarts);
  if (phase === 'results') {
    announce(t.rainEnds(data.claimed ?? 0, data.awarded ?? 0));
    showResults(data);
  } else if (phase === 'idle' || phase === 'countdown') hideResults();
}

function setPhase(phase) {
  state.phase = phase;
  page.dataset.phase = phase || '';
  cancelAnimationFrame(progressFrame);
  hud.progress.hidden = phase !== 'raining';
  if (phase === 'raining') progressFrame = requestAnimationFrame(drawProgress);
  renderCountdown();
}

/** The room's media time now (an estimate while disconnected), or null. */
function roomTime() {
  return handle?.mediaTime() ?? null;
}

/**
 * The countdown the HUD shows: `{kind, seconds, estimated}` (kind `countdown`, `raining` or
 * `next`), or null when there is none to compute.
 */
function countdown() {
  const now = roomTime();
  const rain = state.rain;
  if (!now) return null;
  const left = (at) => Math.max(0, Math.ceil(at - now.time));
  if (state.phase === 'countdown' && typeof rain?.startsAt === 'number') return { kind: 'countdown', seconds: left(rain.startsAt), estimated: now.estimated };
  if (state.phase === 'raining' && typeof rain?.endsAt === 'number') return { kind: 'raining', seconds: left(rain.endsAt), estimated: now.estimated };
  if ((state.phase === 'idle' || state.phase === 'results' || !state.phase) && typeof rain?.nextAt === 'number') {
    return { kind: 'next', seconds: left(rain.nextAt), estimated: now.estimated };
  }
  return null;
}

/** Redraws the state line: the phase in words with its countdown (estimates marked). */
function renderCountdown() {
  const clock = countdown();
  state.countdown = clock;
  let text;
  if (clock?.kind === 'countdown') text = clock.seconds > 0 ? t.countdown(clock.seconds) : t.getReady;
  else if (clock?.kind === 'raining') text = t.rainLeft(clock.seconds);
  else if (clock?.kind === 'next') text = t.nextRain(clock.seconds);
  else if (state.phase === 'results') text = t.results;
  else if (state.phase === 'raining') text = t.raining;
  else if (state.phase === 'countdown') text = t.getReady;
  else if (state.phase === 'idle') text = state.connected ? t.idle : t.idleOffline;
  else text = state.connected ? '' : t.connecting;
  if (spectator && text) text = `${text} · ${t.watching}`;
  const estimated = Boolean(clock?.estimated);
  const key = `${text}|${estimated}`;
  if (hud.state.dataset.key === key) return;
  hud.state.dataset.key = key;
  markChinese(hud.state, text);
  if (estimated) {
    const mark = document.createElement('span');
    mark.className = 'estimate';
    mark.textContent = ` ${t.estimate}`;
    hud.state.append(mark);
  }
}

/** The bar under the state line: how much of the rain is left (from the estimated time when offline). */
function drawProgress() {
  const rain = state.rain;
  const now = roomTime();
  if (state.phase !== 'raining') return;
  if (rain && typeof rain.startsAt === 'number' && typeof rain.endsAt === 'number' && now && rain.endsAt > rain.startsAt) {
    const left = Math.min(1, Math.max(0, (rain.endsAt - now.time) / (rain.endsAt - rain.startsAt)));
    hud.bar.style.transform = `scaleX(${left})`;
  }
  progressFrame = requestAnimationFrame(drawProgress);
}

/**
 * Until the first `rain` event (a page that joins mid-rain hears of no phase change yet),
 * guesses the phase from what is drawn, from the first frame on and then every second: the
 * countdown label means a countdown, falling packets mean it rains, otherwise it is idle.
 */
function guessPhase() {
  clearTimeout(guessTimer);
  if (phaseFromEvents || !handle) return;
  const items = handle.items();
  const phase = items.some((item) => item.name === 'countdown' && item.text) ? 'countdown'
    : items.some((item) => item.img === 'rp_normal' && /^packet-/.test(item.name || '')) ? 'raining' : 'idle';
  if (phase !== state.phase) setPhase(phase);
  guessTimer = setTimeout(guessPhase, 1000);
}

// ---------------------------------------------------------------------------------------------
// awards and taps

function onAward(data) {
  const mine = state.player && data.player === state.player.id;
  if (mine) {
    const before = state.total;
    if (typeof data.total === 'number') state.total = data.total;
    rainCoins += typeof data.coins === 'number' ? data.coins : 0;
    renderTotal(state.total !== before);
    if (data.coins > 0) announce(t.youWon(data.coins, state.total ?? 0));
  } else if (data.coins > 0) {
    showFeed(t.someoneWon(data.name || 'Someone', data.coins));
  }
}

function onTap(data) {
  state.lastTap = { ...data, at: Date.now() };
  switch (data.result) {
    case 'award':
      if (data.coins > 0) {
        showTapLabel(t.win(data.coins), 'win');
        if (!reducedMotion.matches) navigator.vibrate?.(40);
      } else {
        showTapLabel(t.loseShort, 'lose');
      }
      break;
    case 'taken':
      showTapLabel(t.taken, 'taken');
      break;
    case 'miss':
      showTapLabel(t.miss, 'miss');
      flash();
      break;
    case 'capped':
      showTapLabel(t.capped, 'info');
      announce(t.capped);
      break;
    case 'too_soon':
      showTapLabel(t.tooSoon, 'info');
      break;
    default:
      break; // closed: no rain falling, nothing to say
  }
}

/**
 * Shows the answer to the player's tap on a plate at the tap point, kept inside the stage:
 * centred above the point (below it for a claimed packet, whose own label the scene floats
 * upwards from there), flipped to the other side near an edge, clamped at the sides.
 */
function showTapLabel(text, kind) {
  clearTimeout(labelTimer);
  markChinese(tapLabel, text);
  tapLabel.className = `tap-label ${kind}`;
  tapLabel.hidden = false;
  const width = stage.clientWidth, height = stage.clientHeight;
  const box = tapLabel.getBoundingClientRect();
  const point = lastPress ?? { x: width / 2, y: height / 2 };
  const gap = 14, edge = 4;
  const x = Math.min(Math.max(point.x - box.width / 2, edge), Math.max(edge, width - box.width - edge));
  const above = point.y - gap - box.height, below = point.y + gap;
  let y = kind === 'win' || kind === 'lose' ? below : above;
  if (y === above && y < edge) y = below; // flip below near the top
  else if (y === below && y + box.height > height - edge) y = above; // flip above near the bottom
  y = Math.min(Math.max(y, edge), Math.max(edge, height - box.height - edge));
  tapLabel.style.transform = `translate(${Math.round(x)}px, ${Math.round(y)}px)`;
  tapLabel.classList.remove('show');
  void tapLabel.offsetWidth;
  tapLabel.classList.add('show');
  labelTimer = setTimeout(() => {
    tapLabel.hidden = true;
    tapLabel.classList.remove('show');
  }, LABEL_MS);
}

function showToast(text, kind) {
  clearTimeout(toastTimer);
  markChinese(toast, text);
  toast.className = `rain-toast ${kind}`;
  toast.hidden = false;
  // restart the pop animation
  void toast.offsetWidth;
  toast.classList.add('show');
  toastTimer = setTimeout(() => {
    toast.hidden = true;
    toast.classList.remove('show');
  }, TOAST_MS);
}

/** Says `text` to screen readers (the polite live region). */
function announce(text) {
  state.announcements.push(text);
  announcer.textContent = '';
  // a new text node in a later task is announced even when it repeats the last one
  setTimeout(() => markChinese(announcer, text), 50);
}

/** A subtle flash of the stage's edge for a tap that hit nothing. */
function flash() {
  stage.classList.remove('missed');
  void stage.offsetWidth;
  stage.classList.add('missed');
}

function showFeed(text) {
  clearTimeout(feedTimer);
  markChinese(hud.feed, text);
  hud.feed.classList.add('show');
  feedTimer = setTimeout(() => hud.feed.classList.remove('show'), 2000);
}

// ---------------------------------------------------------------------------------------------
// HUD

function renderIdentity() {
  if (spectator || !state.player) {
    hud.name.textContent = t.watching;
    hud.coins.hidden = true;
    page.classList.add('watching');
  } else {
    hud.name.textContent = state.player.name || state.player.id;
    hud.coins.hidden = false;
    page.classList.remove('watching');
    renderTotal(false);
  }
  renderCountdown();
}

/** Shows the total; `bump` animates the pill (only when the total changed). */
function renderTotal(bump) {
  hud.total.textContent = state.total === null ? '–' : String(state.total);
  if (!bump) return;
  state.bumps += 1;
  hud.coins.classList.remove('bump');
  void hud.coins.offsetWidth;
  hud.coins.classList.add('bump');
}

// ---------------------------------------------------------------------------------------------
// share

/** The link to this room for a friend: this page with the room (and server, language), never the token. */
function roomLink() {
  const url = new URL(location.pathname, location.origin);
  url.searchParams.set('room', room);
  if (server) url.searchParams.set('server', server);
  if (params.get('lang')) url.searchParams.set('lang', params.get('lang'));
  return url.href;
}

async function share() {
  const link = roomLink();
  try {
    await navigator.clipboard.writeText(link);
    showToast(t.copied, 'info');
    announce(t.copied);
  } catch {
    showToast(t.copyFailed(link), 'info');
    announce(t.copyFailed(link));
  }
}

// ---------------------------------------------------------------------------------------------
// results

function showResults(data) {
  const generation = ++resultsGeneration;
  state.results = { ...data };
  state.leaderboard = null;
  const claimed = data.claimed ?? 0;
  const packets = typeof data.packets === 'number' ? data.packets : null;
  const stopped = typeof data.stoppedAt === 'number' ? `${t.stopped} ` : '';
  markChinese(results.summary, stopped + t.summary(claimed, packets, data.awarded ?? 0));
  if (spectator || !state.player) results.mine.textContent = '';
  else markChinese(results.mine, rainCoins > 0 ? t.wonThisRain(rainCoins) : t.noCoins);
  if (spectator || !state.player) results.total.textContent = '';
  else markChinese(results.total, t.yourTotal(state.total ?? 0));
  results.rows.replaceChildren(messageRow(t.leaderboardLoading));
  results.note.textContent = '';
  results.root.hidden = false;
  requestAnimationFrame(() => results.root.classList.add('show'));
  loadLeaderboard(generation);
}

function hideResults() {
  resultsGeneration += 1;
  results.root.classList.remove('show');
  results.root.hidden = true;
}

async function loadLeaderboard(generation) {
  try {
    const response = await fetch(handle.url(`api/rooms/${encodeURIComponent(room)}/leaderboard?limit=${LEADERBOARD_LIMIT}`),
      { cache: 'no-store' });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const body = await response.json();
    if (generation !== resultsGeneration) return;
    const players = Array.isArray(body.players) ? body.players : [];
    state.leaderboard = players;
    renderLeaderboard(players);
  } catch (error) {
    if (generation !== resultsGeneration) return;
    state.leaderboard = null;
    results.rows.replaceChildren(messageRow(t.leaderboardMissing));
  }
}

function renderLeaderboard(players) {
  const me = state.player?.id;
  if (!players.length) {
    results.rows.replaceChildren(messageRow(t.leaderboardEmpty));
    return;
  }
  results.rows.replaceChildren(...players.map((entry) => {
    const row = document.createElement('tr');
    if (me && entry.player === me) row.className = 'me';
    row.dataset.player = entry.player ?? '';
    const rank = cell(String(entry.rank ?? ''), 'rank');
    if (entry.rank >= 1 && entry.rank <= 3) rank.dataset.medal = String(entry.rank);
    row.append(rank, cell(entry.name || entry.player || '?', 'name'), cell(String(entry.coins ?? 0), 'coins'));
    return row;
  }));
  const mine = me && players.find((entry) => entry.player === me);
  results.note.textContent = me && !mine && !spectator ? t.notInTop : '';
}

function cell(text, className) {
  const td = document.createElement('td');
  markChinese(td, text);
  td.className = className;
  return td;
}

function messageRow(text) {
  const row = document.createElement('tr');
  const td = cell(text, 'message');
  td.colSpan = 3;
  row.append(td);
  return row;
}

// ---------------------------------------------------------------------------------------------

results.close.addEventListener('click', () => {
  results.root.classList.remove('show');
  results.root.hidden = true;
  stage.focus();
});
hud.share.addEventListener('click', share);
hud.share.setAttribute('aria-label', t.shareLabel);
hud.shareText.textContent = t.share;
// Where the player pressed, for the tap answer (captured before the view's own handler).
stage.addEventListener('pointerdown', (event) => {
  const rect = stage.getBoundingClientRect();
  lastPress = { x: event.clientX - rect.left, y: event.clientY - rect.top };
}, { capture: true });
// Keep a phone from opening the context menu while tapping packets (pinch zoom stays allowed;
// touch-action: manipulation stops double-tap zoom).
stage.addEventListener('contextmenu', (event) => event.preventDefault());
setInterval(renderCountdown, TICK_MS);

if (spectator) {
  hud.name.textContent = t.watching;
  hud.coins.hidden = true;
  page.classList.add('watching');
}
hud.state.textContent = t.connecting;
/** The kept anonymous id, or a new one, kept from now on. */
function ownPlayer() {
  const kept = storedPlayer();
  if (kept) return kept;
  const fresh = newPlayer();
  storePlayer(fresh);
  return fresh;
}

start(token || spectator ? '' : ownPlayer());
