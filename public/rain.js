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
 * This module holds the page's state and joins its parts, in `createRainPage`: the results card
 * (lib/results-card.js) and the passing notices (lib/rain-notices.js); what the page says and
 * computes is in lib/ too (rain-countdown.js, rain-phase.js, tap-answer.js, rain-results.js,
 * room-link.js, anonymous-player.js, words.js).
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
/** After this many failed attempts without any socket opening, check whether the server is up. */
const REFUSAL_CHECK_ATTEMPTS = 3;

/**
 * Starts the rain page in `doc` (rain.html's elements, found by id) for the page at `location`,
 * keeping the anonymous id in `getStorage()`. Returns `{state, destroy}`; `state` is also
 * `window.rainState`.
 */
export function createRainPage(doc, { location: here = doc.defaultView.location, getStorage = () => doc.defaultView.localStorage } = {}) {
  const win = doc.defaultView;
  const params = new URLSearchParams(here.search);
  const room = params.get('room') || 'lobby';
  const role = params.get('role') || 'player';
  const token = params.get('token') || '';
  const server = params.get('server') || '';
  const spectator = role === 'spectator';
  const lang = pageLanguage(here.search);
  const t = words(lang);
  doc.documentElement.lang = documentLanguage(lang);
  const reducedMotion = win.matchMedia('(prefers-reduced-motion: reduce)');

  const $ = (id) => doc.getElementById(id);
  const page = doc.body;
  const stage = $('stage');
  const viewElement = $('view');
  const hud = {
    name: $('hud-name'), coins: $('hud-coins'), total: $('hud-total'), state: $('hud-state'),
    progress: $('hud-progress'), bar: $('hud-progress-bar'), feed: $('hud-feed'), conn: $('hud-conn'),
    share: $('share'), shareText: $('share-text'),
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
  win.rainState = state;

  /** Whether the phase came from a `rain` event (else it is guessed from the frames). */
  let phaseFromEvents = false;
  /** Coins this player won in the current rain (from its own `award` events). */
  let rainCoins = 0;
  let progressFrame = 0;
  let guessTimer = 0;
  let handle = null;
  /** Whether any socket of this page ever got a welcome (else failures may be a refusal). */
  let everJoined = false;
  let refusalChecked = false;

  const notices = createNotices({ stage, toast: $('toast'), tapLabel: $('tap-label'), announcer: $('announcer'), feed: hud.feed },
    { announcements: state.announcements });
  const announce = notices.announce;
  const results = createResultsCard({
    root: $('results'), close: $('results-close'), summary: $('results-summary'), mine: $('results-mine'),
    rows: $('results-rows'), note: $('results-note'), total: $('results-total'),
  }, {
    t, spectator,
    viewer: () => state.player?.id,
    loadPlayers: async () => {
      const response = await win.fetch(handle.url(leaderboardPath(room, LEADERBOARD_LIMIT)), { cache: 'no-store' });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const body = await response.json();
      return Array.isArray(body.players) ? body.players : [];
    },
    onLeaderboard: (players) => {
      state.leaderboard = players;
    },
    onClose: () => stage.focus(),
  });

  // -------------------------------------------------------------------------------------------
  // identity

  /** Keeps the anonymous id for the next visit (not when playing with a token). */
  function keepPlayer(id) {
    if (!token) storePlayer(getStorage, id);
  }

  /** The kept anonymous id, or a new one, kept from now on. */
  function ownPlayer() {
    const kept = storedPlayer(getStorage);
    if (kept) return kept;
    const fresh = newPlayer();
    keepPlayer(fresh);
    return fresh;
  }

  // -------------------------------------------------------------------------------------------
  // the view

  /** Mounts the rain view, joining as `player` (or as the token's player, or as a new guest). */
  function start(player) {
    handle?.destroy();
    state.connected = false;
    handle = mount(viewElement, {
      scene: 'rain', room, role, server, token: token || undefined, player: player || undefined,
      veil: (status) => (status.stopped ? (status.stopped === 'closed' ? t.disconnected : errorText(status.stopped)) : t.reconnecting(status.attempt ?? 0)),
    });
    win.layercastView = handle;
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
      if (welcome.player.secret) keepPlayer(welcome.player.secret);
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
      forgetPlayer(getStorage);
      const fresh = newPlayer();
      keepPlayer(fresh);
      start(fresh);
      return;
    }
    if (error.code === 'unknown_type' || error.code === 'bad_field' || error.code === 'bad_json') return; // ours, not the player's
    const text = errorText(error.code);
    notices.toast(text, 'info');
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
      await win.fetch(handle.url('healthz'), { cache: 'no-store', mode: 'no-cors' });
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

  // -------------------------------------------------------------------------------------------
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
    } else if (phase === 'idle' || phase === 'countdown') results.hide();
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

  /** Redraws the state line: the phase in words with its countdown (estimates marked). */
  function renderCountdown() {
    const clock = rainCountdown(state.phase, state.rain, roomTime());
    state.countdown = clock;
    const text = stateText(clock, { phase: state.phase, connected: state.connected, spectator }, t);
    const estimated = Boolean(clock?.estimated);
    const key = `${text}|${estimated}`;
    if (hud.state.dataset.key === key) return;
    hud.state.dataset.key = key;
    markChinese(hud.state, text);
    if (estimated) {
      const mark = doc.createElement('span');
      mark.className = 'estimate';
      mark.textContent = ` ${t.estimate}`;
      hud.state.append(mark);
    }
  }

  /** The bar under the state line: how much of the rain is left (from the estimated time when offline). */
  function drawProgress() {
    if (state.phase !== 'raining') return;
    const left = rainLeftFraction(state.rain, roomTime()?.time);
    if (left !== null) hud.bar.style.transform = `scaleX(${left})`;
    progressFrame = requestAnimationFrame(drawProgress);
  }

  /**
   * Until the first `rain` event (a page that joins mid-rain hears of no phase change yet),
   * guesses the phase from what is drawn, from the first frame on and then every second.
   */
  function guessPhase() {
    clearTimeout(guessTimer);
    if (phaseFromEvents || !handle) return;
    const phase = guessedPhase(handle.items());
    if (phase !== state.phase) setPhase(phase);
    guessTimer = setTimeout(guessPhase, 1000);
  }

  // -------------------------------------------------------------------------------------------
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
      notices.feed(t.someoneWon(data.name || 'Someone', data.coins));
    }
  }

  function onTap(data) {
    state.lastTap = { ...data, at: Date.now() };
    const answer = tapAnswer(data, t);
    if (!answer) return;
    notices.tapLabel(answer.text, answer.kind);
    if (answer.vibrate && !reducedMotion.matches) win.navigator.vibrate?.(40);
    if (answer.flash) notices.flash();
    if (answer.announce) announce(answer.text);
  }

  // -------------------------------------------------------------------------------------------
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

  // -------------------------------------------------------------------------------------------
  // share

  async function share() {
    const link = roomLink(here, { room, server, lang: params.get('lang') || '' });
    try {
      await win.navigator.clipboard.writeText(link);
      notices.toast(t.copied, 'info');
      announce(t.copied);
    } catch {
      notices.toast(t.copyFailed(link), 'info');
      announce(t.copyFailed(link));
    }
  }

  // -------------------------------------------------------------------------------------------
  // results

  function showResults(data) {
    state.results = { ...data };
    state.leaderboard = null;
    results.show(data, { playing: !spectator && Boolean(state.player), rainCoins, total: state.total });
  }

  // -------------------------------------------------------------------------------------------

  hud.share.addEventListener('click', share);
  hud.share.setAttribute('aria-label', t.shareLabel);
  hud.shareText.textContent = t.share;
  // Keep a phone from opening the context menu while tapping packets (pinch zoom stays allowed;
  // touch-action: manipulation stops double-tap zoom).
  stage.addEventListener('contextmenu', (event) => event.preventDefault());
  const ticker = setInterval(renderCountdown, TICK_MS);

  if (spectator) {
    hud.name.textContent = t.watching;
    hud.coins.hidden = true;
    page.classList.add('watching');
  }
  hud.state.textContent = t.connecting;
  start(token || spectator ? '' : ownPlayer());

  return {
    state,
    /** Stops the page: the view, its timers and the countdown. */
    destroy() {
      clearInterval(ticker);
      notices.destroy();
      clearTimeout(guessTimer);
      cancelAnimationFrame(progressFrame);
      handle?.destroy();
      handle = null;
    },
  };
}

createRainPage(document);
