/**
 * rain.html?room=…[&role=spectator][&token=…][&server=…][&overlay=1]: the red-packet rain on a
 * phone (protocol.md, "The red-packet rain").
 *
 * The canvas draws everything the server sends (countdown digits, falling packets, floating
 * labels); this page adds an HTML HUD over it: who the player is and their own coin total, the
 * rain's phase, a toast answering the player's own taps, and a results card with the room's
 * leaderboard after each rain.
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
 * joins (welcomes received), results, errors}`.
 */
import { mount } from './layercast.js';

const STORAGE_KEY = 'layercast.player';
const ANONYMOUS_ID = /^anon-[A-Za-z0-9_-]{16,64}$/;
const PHASE_TEXT = {
  idle: 'Next rain soon',
  countdown: 'Get ready',
  raining: 'Tap the red packets!',
  results: 'Results',
};
const TOAST_MS = 1400;
const LEADERBOARD_LIMIT = 10;

const params = new URLSearchParams(location.search);
const room = params.get('room') || 'lobby';
const role = params.get('role') || 'player';
const token = params.get('token') || '';
const server = params.get('server') || '';
const spectator = role === 'spectator';

const $ = (id) => document.getElementById(id);
const stage = $('stage');
const viewElement = $('view');
const hud = {
  name: $('hud-name'), coins: $('hud-coins'), total: $('hud-total'), state: $('hud-state'),
  progress: $('hud-progress'), bar: $('hud-progress-bar'), feed: $('hud-feed'), conn: $('hud-conn'),
};
const toast = $('toast');
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
};
window.rainState = state;

/** Whether the phase came from a `rain` event (else it is guessed from the frames). */
let phaseFromEvents = false;
/** Coins this player won in the current rain (from its own `award` events). */
let rainCoins = 0;
let toastTimer = 0;
let feedTimer = 0;
let progressFrame = 0;
let guessTimer = 0;
/** Bumped with each results view, so a slow leaderboard answer for an older one is dropped. */
let resultsGeneration = 0;
let handle = null;

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
  handle = mount(viewElement, { scene: 'rain', room, role, server, token: token || undefined, player: player || undefined });
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
  const messages = {
    bad_token: 'Your sign-in was refused; reopen the rain from the app.',
    token_required: 'Sign in from the app to play.',
    ledger_unavailable: 'That tap could not be recorded; tap again.',
    rate_limited: 'Easy! Too many taps.',
  };
  if (messages[error.code]) showToast(messages[error.code], 'info');
}

function onStatus(status) {
  state.connected = Boolean(status.connected);
  if (status.connected) {
    hud.conn.hidden = true;
    return;
  }
  hud.conn.hidden = false;
  if (status.stopped) hud.conn.textContent = status.stopped === 'closed' ? 'Disconnected' : `Cannot join (${status.stopped})`;
  else if (status.retryInMs !== undefined) hud.conn.textContent = `Reconnecting in ${(status.retryInMs / 1000).toFixed(1)} s…`;
  else hud.conn.textContent = 'Disconnected';
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
// rain phases

function onRain(data) {
  phaseFromEvents = true;
  clearTimeout(guessTimer);
  const phase = data.phase;
  if (phase === 'countdown' || (phase === 'raining' && state.rain?.rain !== data.rain)) rainCoins = 0;
  state.rain = { ...(state.rain?.rain === data.rain ? state.rain : {}), ...data };
  setPhase(phase);
  if (phase === 'results') showResults(data);
  else if (phase === 'idle' || phase === 'countdown') hideResults();
}

function setPhase(phase) {
  state.phase = phase;
  stage.dataset.phase = phase || '';
  hud.state.textContent = spectator ? `${PHASE_TEXT[phase] ?? ''} · watching`.replace(/^ · /, '') : (PHASE_TEXT[phase] ?? '');
  cancelAnimationFrame(progressFrame);
  hud.progress.hidden = phase !== 'raining';
  if (phase === 'raining') progressFrame = requestAnimationFrame(drawProgress);
}

/** The bar under the state line: how much of the rain is left. */
function drawProgress() {
  const rain = state.rain;
  const now = handle?.viewTime();
  if (state.phase !== 'raining') return;
  if (rain && typeof rain.startsAt === 'number' && typeof rain.endsAt === 'number' && now !== null && rain.endsAt > rain.startsAt) {
    const left = Math.min(1, Math.max(0, (rain.endsAt - now) / (rain.endsAt - rain.startsAt)));
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
    if (typeof data.total === 'number') state.total = data.total;
    rainCoins += typeof data.coins === 'number' ? data.coins : 0;
    renderTotal(true);
  } else if (data.coins > 0) {
    showFeed(`${data.name || 'Someone'} +${data.coins} 金币`);
  }
}

function onTap(data) {
  state.lastTap = { ...data, at: Date.now() };
  switch (data.result) {
    case 'award':
      if (data.coins > 0) {
        showToast(`+${data.coins} 金币!`, 'win');
        navigator.vibrate?.(40);
      } else {
        showToast('旺旺年!人旺旺', 'lose');
      }
      break;
    case 'taken':
      showToast('Someone got it first', 'taken');
      break;
    case 'miss':
      flash();
      break;
    default:
      break; // closed: no rain falling, nothing to say
  }
}

function showToast(text, kind) {
  clearTimeout(toastTimer);
  toast.textContent = text;
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

/** A subtle flash of the stage's edge for a tap that hit nothing. */
function flash() {
  stage.classList.remove('missed');
  void stage.offsetWidth;
  stage.classList.add('missed');
}

function showFeed(text) {
  clearTimeout(feedTimer);
  hud.feed.textContent = text;
  hud.feed.classList.add('show');
  feedTimer = setTimeout(() => hud.feed.classList.remove('show'), 2000);
}

// ---------------------------------------------------------------------------------------------
// HUD

function renderIdentity() {
  if (spectator || !state.player) {
    hud.name.textContent = 'watching';
    hud.coins.hidden = true;
    stage.classList.add('watching');
  } else {
    hud.name.textContent = state.player.name || state.player.id;
    hud.coins.hidden = false;
    stage.classList.remove('watching');
    renderTotal(false);
  }
  if (state.phase) setPhase(state.phase);
}

function renderTotal(bump) {
  hud.total.textContent = state.total === null ? '–' : String(state.total);
  if (!bump) return;
  hud.coins.classList.remove('bump');
  void hud.coins.offsetWidth;
  hud.coins.classList.add('bump');
}

// ---------------------------------------------------------------------------------------------
// results

function showResults(data) {
  const generation = ++resultsGeneration;
  state.results = { ...data };
  state.leaderboard = null;
  const claimed = data.claimed ?? 0;
  const packets = data.packets;
  results.summary.textContent = `${claimed}${typeof packets === 'number' ? ` / ${packets}` : ''} packets claimed · ${data.awarded ?? 0} 金币 awarded`;
  if (spectator || !state.player) results.mine.textContent = '';
  else results.mine.textContent = rainCoins > 0 ? `You won ${rainCoins} 金币 this rain!` : 'No coins this time — next rain soon!';
  results.total.textContent = spectator || !state.player ? '' : `Your total: ${state.total ?? 0} 金币`;
  results.rows.replaceChildren(messageRow('Loading…'));
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
    results.rows.replaceChildren(messageRow('The leaderboard is not available right now.'));
  }
}

function renderLeaderboard(players) {
  const me = state.player?.id;
  if (!players.length) {
    results.rows.replaceChildren(messageRow('Nobody has won here yet.'));
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
  results.note.textContent = me && !mine && !spectator ? 'You are not in the top 10 yet.' : '';
}

function cell(text, className) {
  const td = document.createElement('td');
  td.textContent = text;
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
});
// Keep a phone from scrolling, zooming or opening the context menu while tapping packets.
stage.addEventListener('contextmenu', (event) => event.preventDefault());
document.addEventListener('gesturestart', (event) => event.preventDefault());
document.addEventListener('dblclick', (event) => event.preventDefault(), { passive: false });

if (spectator) {
  hud.name.textContent = 'watching';
  hud.coins.hidden = true;
  stage.classList.add('watching');
}
/** The kept anonymous id, or a new one, kept from now on. */
function ownPlayer() {
  const kept = storedPlayer();
  if (kept) return kept;
  const fresh = newPlayer();
  storePlayer(fresh);
  return fresh;
}

start(token || spectator ? '' : ownPlayer());
