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
 * once (lib/anonymous-player.js), keeps it in localStorage (`layercast.player`) and joins with
 * it, so a returning player keeps their total (reconnects reuse it too, see mount()). The id is
 * a credential: it is never shown; everyone, this page included, sees the public id (`p-…`) the
 * server derives from it.
 *
 * This module holds the page: what it decides from each message, in pure functions exported for
 * Tests/js/rain-page.test.mjs, and `createRainPage`, which joins them to rain.html's elements
 * with one small function per message or part. rain-start.js starts it. The results card
 * (lib/results-card.js) and the passing notices (lib/rain-notices.js) are parts of their own;
 * what the page says and computes is in lib/ too (rain-countdown.js, rain-phase.js,
 * tap-answer.js, rain-results.js, room-link.js, anonymous-player.js, words.js).
 *
 * For tests: `window.layercastView` is the mounted view's handle; `window.rainState` is
 * `{player: {id (public), name} | null, total, phase, rain, lastTap, leaderboard, role, connected,
 * joins (welcomes received), results, errors, countdown: {kind, seconds, estimated} | null,
 * bumps (coin pill animations), announcements, attempt}`.
 */
import { mount } from './layercast.js';
import { forgetPlayer, newPlayer, storedPlayer, storePlayer } from './lib/anonymous-player.js';
import { rainCountdown, rainLeftFraction, stateText } from './lib/rain-countdown.js';
import { guessedPhase } from './lib/rain-phase.js';
import { createNotices } from './lib/rain-notices.js';
import { leaderboardPath } from './lib/rain-results.js';
import { createResultsCard } from './lib/results-card.js';
import { roomLink } from './lib/room-link.js';
import { tapAnswer } from './lib/tap-answer.js';
import { documentLanguage, markChinese, pageLanguage, words } from './lib/words.js';

const LEADERBOARD_LIMIT = 10;
/** How often the HUD's countdown is redrawn (ms). */
const TICK_MS = 250;
/** How often the rain's progress bar is set again from the estimated media time (runProgress). */
const PROGRESS_SYNC_MS = 1000;
/** How long the rain's progress bar stays still between two steps down (runProgress). */
const PROGRESS_STEP_MS = 125;
/** After this many failed attempts without any socket opening, check whether the server is up. */
const REFUSAL_CHECK_ATTEMPTS = 3;
/** Error codes that are this page's own mistakes, not the player's: kept in `errors`, never shown. */
const OWN_ERRORS = new Set(['unknown_type', 'bad_field', 'bad_json']);

// ---------------------------------------------------------------------------------------------
// what the page decides (pure)

/**
 * The page's options from its query string `search`: `{room, role, token, server, spectator,
 * lang (en | zh), langParam (as given, for a shared link)}`.
 */
export function pageOptions(search) {
  const params = new URLSearchParams(search);
  const role = params.get('role') || 'player';
  return {
    room: params.get('room') || 'lobby',
    role,
    token: params.get('token') || '',
    server: params.get('server') || '',
    spectator: role === 'spectator',
    lang: pageLanguage(search),
    langParam: params.get('lang') || '',
  };
}

/** `window.rainState` before anything is heard, for a page joining as `role`. */
export function initialState(role) {
  return {
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
}

/** The plain words `t` has for an error code (never the code itself). */
export function errorText(code, t) {
  return t.errors[code] ?? t.errorFallback;
}

/** What the view's veil says for a connection `status`: why it stopped, or the reconnect attempt. */
export function veilText(status, t) {
  if (!status.stopped) return t.reconnecting(status.attempt ?? 0);
  return status.stopped === 'closed' ? t.disconnected : errorText(status.stopped, t);
}

/**
 * What the page does about a server error `code` on a socket joined as `player` (an anonymous
 * id, or '' with a `token` or as a spectator): `rejoin` as a new guest when the kept id is refused,
 * `ignore` for the page's own mistakes, else `tell` the player in plain words.
 */
export function errorResponse(code, { player, token }) {
  if (code === 'bad_player' && player && !token) return 'rejoin';
  return OWN_ERRORS.has(code) ? 'ignore' : 'tell';
}

/**
 * Takes a `welcome` into `state` (a join more; the player and their total, or none for a
 * spectator). Returns the anonymous id to keep when the server made one up, else undefined.
 */
export function welcomed(state, welcome) {
  state.joins += 1;
  if (!welcome.player) {
    state.player = null;
    state.total = null;
    return undefined;
  }
  state.player = { id: welcome.player.id, name: welcome.player.name };
  state.total = welcome.player.total ?? 0;
  return welcome.player.secret || undefined;
}

/** The scene's size from a `welcome`, the rain's 414 × 736 where it says none. */
export function sceneSize(welcome) {
  return { width: welcome.size?.width || 414, height: welcome.size?.height || 736 };
}

/** Takes a connection `status` into `state`: connected, and the reconnect attempt (0 once connected). */
export function statusChanged(state, status) {
  state.connected = Boolean(status.connected);
  state.attempt = status.connected ? 0 : status.attempt ?? state.attempt;
}

/**
 * The HUD's connection line for `state` (after `statusChanged`) and `status`: null while
 * connected (the line is hidden), else why it stopped, connecting, or the reconnect attempt.
 */
export function connectionText(status, state, t) {
  if (status.connected) return null;
  if (status.stopped) return status.stopped === 'closed' ? t.disconnected : errorText(status.stopped, t);
  return state.joins > 0 ? t.reconnecting(state.attempt) : t.connecting;
}

/** Whether to ask if the server refuses the page: no socket ever joined, tried enough, not asked yet. */
export function shouldCheckRefusal({ everJoined, refusalChecked, attempt }) {
  return !everJoined && !refusalChecked && attempt >= REFUSAL_CHECK_ATTEMPTS;
}

/**
 * The page after a `rain` event's `data`, from its `phase`, `rain` and `rainCoins` (coins this
 * player won in the current rain): the new phase; the rain, keeping the same rain's earlier
 * fields; the coins, reset when a rain counts down or another one starts; and whether the rain
 * `starts` (announce it), `ends` (announce and show the results) or `hidesResults`.
 */
export function rainChanged({ phase: previous, rain, rainCoins }, data) {
  const phase = data.phase;
  const another = phase === 'countdown' || (phase === 'raining' && rain?.rain !== data.rain);
  return {
    phase,
    rain: { ...(rain?.rain === data.rain ? rain : {}), ...data },
    rainCoins: another ? 0 : rainCoins,
    starts: phase === 'raining' && previous !== 'raining',
    ends: phase === 'results',
    hidesResults: phase === 'idle' || phase === 'countdown',
  };
}

/**
 * What an `award` event's `data` changes for a page with `player`, `total` and `rainCoins`:
 * for the player's own award `{mine: true, total, rainCoins, bump (the total changed), say}`,
 * else `{mine: false, feed}`; `say` and `feed` are the words to announce or pass in the feed
 * (null for an empty packet).
 */
export function awardSeen({ player, total, rainCoins }, data, t) {
  if (player && data.player === player.id) {
    const next = typeof data.total === 'number' ? data.total : total;
    return {
      mine: true,
      total: next,
      rainCoins: rainCoins + (typeof data.coins === 'number' ? data.coins : 0),
      bump: next !== total,
      say: data.coins > 0 ? t.youWon(data.coins, next ?? 0) : null,
    };
  }
  return { mine: false, feed: data.coins > 0 ? t.someoneWon(data.name || 'Someone', data.coins) : null };
}

/** Who the HUD names: `{watching: true, name}` for a spectator or a page without a player, else the player's name (or public id). */
export function identityLine(state, spectator, t) {
  if (spectator || !state.player) return { watching: true, name: t.watching };
  return { watching: false, name: state.player.name || state.player.id };
}

/** The text of the coin pill for a `total` (a dash while unknown). */
export function totalText(total) {
  return total === null ? '–' : String(total);
}

/**
 * The state line at room time `now` (`{time, estimated}` or null): the countdown `clock`
 * (`rainCountdown`), its `text`, whether it is `estimated`, and a `key` that changes only when
 * what is shown does.
 */
export function stateLine(state, now, spectator, t) {
  const clock = rainCountdown(state.phase, state.rain, now);
  const text = stateText(clock, { phase: state.phase, connected: state.connected, spectator }, t);
  const estimated = Boolean(clock?.estimated);
  return { clock, text, estimated, key: `${text}|${estimated}` };
}

// ---------------------------------------------------------------------------------------------
// the page: rain.html's elements joined to the view and to the functions above

/**
 * Starts the rain page in `doc` (rain.html's elements, found by id) for the page at `location`,
 * keeping the anonymous id in `getStorage()`. Returns `{state, destroy}`; `state` is also
 * `window.rainState`.
 */
export function createRainPage(doc, { location: here = doc.defaultView.location, getStorage = () => doc.defaultView.localStorage } = {}) {
  const win = doc.defaultView;
  const options = pageOptions(here.search);
  const t = words(options.lang);
  doc.documentElement.lang = documentLanguage(options.lang);
  const state = initialState(options.role);
  win.rainState = state;
  const $ = (id) => doc.getElementById(id);
  const page = {
    doc, win, here, getStorage, options, t, state,
    body: doc.body,
    stage: $('stage'),
    viewElement: $('view'),
    hud: {
      name: $('hud-name'), coins: $('hud-coins'), total: $('hud-total'), state: $('hud-state'),
      progress: $('hud-progress'), bar: $('hud-progress-bar'), feed: $('hud-feed'), conn: $('hud-conn'),
      share: $('share'), shareText: $('share-text'),
    },
    reducedMotion: win.matchMedia('(prefers-reduced-motion: reduce)'),
    /** The mounted view, or null. */
    handle: null,
    /** Whether the phase came from a `rain` event (else it is guessed from the frames). */
    phaseFromEvents: false,
    /** Coins this player won in the current rain (from its own `award` events). */
    rainCoins: 0,
    progress: null,
    progressTimer: 0,
    guessTimer: 0,
    /** Whether any socket of this page ever got a welcome (else failures may be a refusal). */
    everJoined: false,
    refusalChecked: false,
  };
  page.notices = createNotices({ stage: page.stage, toast: $('toast'), tapLabel: $('tap-label'), announcer: $('announcer'), feed: page.hud.feed },
    { announcements: state.announcements });
  page.results = createResultsCard({
    root: $('results'), close: $('results-close'), summary: $('results-summary'), mine: $('results-mine'),
    rows: $('results-rows'), note: $('results-note'), total: $('results-total'),
  }, {
    t, spectator: options.spectator,
    viewer: () => state.player?.id,
    loadPlayers: () => loadLeaderboard(page),
    onLeaderboard: (players) => {
      state.leaderboard = players;
    },
    onClose: () => page.stage.focus(),
  });

  setUpHud(page);
  const ticker = setInterval(() => renderCountdown(page), TICK_MS);
  join(page, options.token || options.spectator ? '' : ownPlayer(page));

  return {
    state,
    /** Stops the page: the view, its timers and the countdown. */
    destroy() {
      clearInterval(ticker);
      page.notices.destroy();
      clearTimeout(page.guessTimer);
      clearInterval(page.progressTimer);
      page.progress?.cancel();
      page.handle?.destroy();
      page.handle = null;
    },
  };
}

/** The share button, the stage's context menu and the HUD's first words, before any message. */
function setUpHud(page) {
  const { hud, t } = page;
  hud.share.addEventListener('click', () => share(page));
  hud.share.setAttribute('aria-label', t.shareLabel);
  hud.shareText.textContent = t.share;
  // Keep a phone from opening the context menu while tapping packets (pinch zoom stays allowed;
  // touch-action: manipulation stops double-tap zoom).
  page.stage.addEventListener('contextmenu', (event) => event.preventDefault());
  if (page.options.spectator) showIdentity(page, identityLine(page.state, true, t));
  hud.state.textContent = t.connecting;
}

// identity

/** Keeps the anonymous id for the next visit (not when playing with a token). */
function keepPlayer(page, id) {
  if (!page.options.token) storePlayer(page.getStorage, id);
}

/** The kept anonymous id, or a new one, kept from now on. */
function ownPlayer(page) {
  const kept = storedPlayer(page.getStorage);
  if (kept) return kept;
  const fresh = newPlayer();
  keepPlayer(page, fresh);
  return fresh;
}

// the view

/** Mounts the rain view, joining as `player` (or as the token's player, or as a new guest). */
function join(page, player) {
  const { options, t } = page;
  page.handle?.destroy();
  page.state.connected = false;
  const handle = mount(page.viewElement, {
    scene: 'rain', room: options.room, role: options.role, server: options.server,
    token: options.token || undefined, player: player || undefined,
    veil: (status) => veilText(status, t),
  });
  page.handle = handle;
  page.win.layercastView = handle;
  handle.on('welcome', (welcome) => onWelcome(page, welcome));
  handle.on('event', (event) => onEvent(page, event));
  handle.on('error', (error) => onError(page, error, player));
  handle.on('status', (status) => onStatus(page, status));
  const stopGuessing = handle.on('frame', () => {
    stopGuessing();
    if (!page.phaseFromEvents) guessPhase(page);
  });
}

function onWelcome(page, welcome) {
  page.everJoined = true;
  const size = sceneSize(welcome);
  page.stage.style.setProperty('--scene-w', String(size.width));
  page.stage.style.setProperty('--scene-h', String(size.height));
  // The server names an anonymous id only when it made one up for a join that brought none.
  const secret = welcomed(page.state, welcome);
  if (secret) keepPlayer(page, secret);
  renderIdentity(page);
}

function onError(page, error, player) {
  page.state.errors.push(error);
  switch (errorResponse(error.code, { player, token: page.options.token })) {
    case 'rejoin': {
      // The kept id is refused (e.g. the server's rules changed): start over as a new guest.
      forgetPlayer(page.getStorage);
      const fresh = newPlayer();
      keepPlayer(page, fresh);
      join(page, fresh);
      break;
    }
    case 'tell': {
      const text = errorText(error.code, page.t);
      page.notices.toast(text, 'info');
      page.notices.announce(text);
      break;
    }
  }
}

function onStatus(page, status) {
  const { state, hud, t } = page;
  statusChanged(state, status);
  page.body.classList.toggle('offline', !status.connected && state.joins > 0);
  const text = connectionText(status, state, t);
  hud.conn.hidden = text === null;
  hud.conn.textContent = text ?? '';
  if (!status.connected) {
    if (state.joins > 0 && state.attempt === 1) page.notices.announce(t.connectionLost);
    if (shouldCheckRefusal({ everJoined: page.everJoined, refusalChecked: page.refusalChecked, attempt: state.attempt })) {
      checkRefusal(page);
    }
  }
  renderCountdown(page);
}

/**
 * The socket never opened: when the server answers plain HTTP, it is up and refused this page
 * (its origin is not allowed, or it is full), so say so instead of reconnecting in silence.
 */
async function checkRefusal(page) {
  page.refusalChecked = true;
  try {
    // no-cors: the server may be another origin without CORS; any answer at all means it is up.
    await page.win.fetch(page.handle.url('healthz'), { cache: 'no-store', mode: 'no-cors' });
    if (page.everJoined) return;
    page.hud.conn.textContent = page.t.refused;
    page.notices.announce(page.t.refused);
  } catch {
    // the server is down (or unreachable from here): keep saying "Reconnecting"
  }
}

function onEvent(page, { name, data }) {
  if (!data || typeof data !== 'object') return;
  switch (name) {
    case 'rain':
      onRain(page, data);
      break;
    case 'award':
      onAward(page, data);
      break;
    case 'tap':
      onTap(page, data);
      break;
  }
}

// rain phases and countdowns

function onRain(page, data) {
  const { state, t } = page;
  page.phaseFromEvents = true;
  clearTimeout(page.guessTimer);
  const change = rainChanged({ phase: state.phase, rain: state.rain, rainCoins: page.rainCoins }, data);
  page.rainCoins = change.rainCoins;
  state.rain = change.rain;
  setPhase(page, change.phase);
  if (change.starts) page.notices.announce(t.rainStarts);
  if (change.ends) {
    page.notices.announce(t.rainEnds(data.claimed ?? 0, data.awarded ?? 0));
    showResults(page, data);
  } else if (change.hidesResults) page.results.hide();
}

function setPhase(page, phase) {
  page.state.phase = phase;
  page.body.dataset.phase = phase || '';
  clearInterval(page.progressTimer);
  page.hud.progress.hidden = phase !== 'raining';
  runProgress(page);
  if (phase === 'raining') page.progressTimer = setInterval(() => runProgress(page), PROGRESS_SYNC_MS);
  renderCountdown(page);
}

/** The room's media time now (an estimate while disconnected), or null. */
function roomTime(page) {
  return page.handle?.mediaTime() ?? null;
}

/** Redraws the state line: the phase in words with its countdown (estimates marked). */
function renderCountdown(page) {
  const { state, hud } = page;
  const line = stateLine(state, roomTime(page), page.options.spectator, page.t);
  state.countdown = line.clock;
  if (hud.state.dataset.key === line.key) return;
  hud.state.dataset.key = line.key;
  markChinese(hud.state, line.text);
  if (line.estimated) {
    const mark = page.doc.createElement('span');
    mark.className = 'estimate';
    mark.textContent = ` ${page.t.estimate}`;
    hud.state.append(mark);
  }
}

/**
 * The bar under the state line: how much of the rain is left (from the estimated time when
 * offline). It runs down to empty at the rain's end as an animation of its transform, in steps of
 * PROGRESS_STEP_MS: while an animation runs smoothly the page's thread works out the bar's style
 * in every animation frame, even when the compositor plays it, and in steps only at each step.
 * Each call starts it again from the estimated media time (every PROGRESS_SYNC_MS while it rains).
 */
function runProgress(page) {
  page.progress?.cancel();
  page.progress = null;
  if (page.state.phase !== 'raining') return;
  const time = roomTime(page)?.time;
  const left = rainLeftFraction(page.state.rain, time);
  if (left === null) return;
  const remainingMs = Math.max(0, (page.state.rain.endsAt - Math.max(time, page.state.rain.startsAt)) * 1000);
  const steps = Math.max(1, Math.round(remainingMs / PROGRESS_STEP_MS));
  page.progress = page.hud.bar.animate([{ transform: `scaleX(${left})` }, { transform: 'scaleX(0)' }],
    { duration: remainingMs, easing: `steps(${steps})`, fill: 'forwards' });
}

/**
 * Until the first `rain` event (a page that joins mid-rain hears of no phase change yet),
 * guesses the phase from what is drawn, from the first frame on and then every second.
 */
function guessPhase(page) {
  clearTimeout(page.guessTimer);
  if (page.phaseFromEvents || !page.handle) return;
  const phase = guessedPhase(page.handle.items());
  if (phase !== page.state.phase) setPhase(page, phase);
  page.guessTimer = setTimeout(() => guessPhase(page), 1000);
}

// awards and taps

function onAward(page, data) {
  const { state } = page;
  const seen = awardSeen({ player: state.player, total: state.total, rainCoins: page.rainCoins }, data, page.t);
  if (!seen.mine) {
    if (seen.feed) page.notices.feed(seen.feed);
    return;
  }
  state.total = seen.total;
  page.rainCoins = seen.rainCoins;
  renderTotal(page, seen.bump);
  if (seen.say) page.notices.announce(seen.say);
}

function onTap(page, data) {
  page.state.lastTap = { ...data, at: Date.now() };
  const answer = tapAnswer(data, page.t);
  if (!answer) return;
  page.notices.tapLabel(answer.text, answer.kind);
  if (answer.vibrate && !page.reducedMotion.matches) page.win.navigator.vibrate?.(40);
  if (answer.flash) page.notices.flash();
  if (answer.announce) page.notices.announce(answer.text);
}

// HUD

/** Names the player (or says the page is watching) in the HUD. */
function showIdentity(page, { watching, name }) {
  page.hud.name.textContent = name;
  page.hud.coins.hidden = watching;
  page.body.classList.toggle('watching', watching);
}

function renderIdentity(page) {
  const identity = identityLine(page.state, page.options.spectator, page.t);
  showIdentity(page, identity);
  if (!identity.watching) renderTotal(page, false);
  renderCountdown(page);
}

/** Shows the total; `bump` animates the pill (only when the total changed). */
function renderTotal(page, bump) {
  const { hud } = page;
  hud.total.textContent = totalText(page.state.total);
  if (!bump) return;
  page.state.bumps += 1;
  page.notices.replay(hud.coins, 'bump');
}

// share

async function share(page) {
  const { options, notices, t } = page;
  const link = roomLink(page.here, { room: options.room, server: options.server, lang: options.langParam });
  try {
    await page.win.navigator.clipboard.writeText(link);
    notices.toast(t.copied, 'info');
    notices.announce(t.copied);
  } catch {
    notices.toast(t.copyFailed(link), 'info');
    notices.announce(t.copyFailed(link));
  }
}

// results

/** The room's leaderboard's `players` (resolves to [] when it has none). */
async function loadLeaderboard(page) {
  const response = await page.win.fetch(page.handle.url(leaderboardPath(page.options.room, LEADERBOARD_LIMIT)), { cache: 'no-store' });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const body = await response.json();
  return Array.isArray(body.players) ? body.players : [];
}

function showResults(page, data) {
  const { state } = page;
  state.results = { ...data };
  state.leaderboard = null;
  page.results.show(data, { playing: !page.options.spectator && Boolean(state.player), rainCoins: page.rainCoins, total: state.total });
}
