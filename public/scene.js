/**
 * scene.html?scene=…&room=…&role=…[&server=…][&token=…|&player=…][&overlay=1][&debug=1]: one
 * scene filling the window, with a status bar: the connection state and, in the scene's own words
 * from `welcome` (describe-event.js), what to do until something happens, then what last happened
 * (#status, e.g. "Pull released at 56 %", "《Walden》 opened by a player"), in the page's language
 * (`?lang=zh|en`, else the browser's). `?debug=1` also shows the raw last event or error (#events).
 *
 * For tests: `window.layercastView` is the mounted view's handle, `window.layercastErrors`
 * collects the server's `error` messages.
 */
import './layercast-view.js';
import { describeEvent, describeScene, sceneSummary } from './lib/describe-event.js';
import { documentLanguage, markChinese, pageLanguage, words } from './lib/words.js';

const params = new URLSearchParams(location.search);
const debug = params.get('debug') === '1';
const main = document.getElementById('main');
const title = document.getElementById('title');
const state = document.getElementById('state');
const status = document.getElementById('status');
const events = document.getElementById('events');
const lang = pageLanguage(location.search);
const t = words(lang);
document.documentElement.lang = documentLanguage(lang);
window.layercastErrors = [];
events.hidden = !debug;
let self = null;
let sceneWords = {};
let joined = false;
let refusalChecked = false;

/**
 * After a few attempts in which no socket opened: when the server answers plain HTTP it is up
 * and refused this page (its origin is not allowed), so say so in words.
 */
async function checkRefusal(handle) {
  refusalChecked = true;
  try {
    await fetch(handle.url('healthz'), { cache: 'no-store', mode: 'no-cors' });
    if (!joined) showState(t.errors.origin, 'stopped');
  } catch {
    // the server is down: keep saying "Reconnecting"
  }
}

/** Shows the connection state. */
function showState(text, kind) {
  state.textContent = text;
  state.className = `state ${kind}`;
}

const scene = params.get('scene');
if (!scene) {
  showState('No scene chosen', 'stopped');
  status.innerHTML = 'Open a scene from <a href="./">the list</a>.';
} else {
  const view = document.createElement('layercast-view');
  for (const name of ['scene', 'room', 'role', 'server', 'token', 'player']) {
    if (params.get(name)) view.setAttribute(name === 'role' ? 'viewer-role' : name, params.get(name));
  }
  const room = params.get('room') || 'lobby';
  title.textContent = `${scene} · ${room}`;

  view.addEventListener('layercast-mount', ({ detail }) => {
    window.layercastView = detail;
  });
  view.addEventListener('layercast-welcome', ({ detail }) => {
    self = detail.client ?? null;
    if (!joined) markChinese(status, sceneSummary(detail, lang));
    sceneWords = detail;
    joined = true;
    const name = detail.title || detail.scene;
    title.textContent = `${name} · ${detail.room}${detail.role === 'spectator' ? ' (watching)' : ''}`;
    main.setAttribute('aria-label', `${name}, room ${detail.room}`);
    document.title = `${name} – Layercast`;
  });
  view.addEventListener('layercast-status', ({ detail }) => {
    if (detail.connected) showState('Connected', 'connected');
    else if (detail.stopped) showState(detail.stopped === 'closed' ? t.disconnected : t.errors[detail.stopped] ?? t.errorFallback, 'stopped');
    else {
      showState(t.reconnecting(detail.attempt ?? 0), '');
      if (!joined && !refusalChecked && (detail.attempt ?? 0) >= 3 && window.layercastView) checkRefusal(window.layercastView);
    }
  });
  view.addEventListener('layercast-event', ({ detail }) => {
    markChinese(status, describeScene(detail, sceneWords, lang, self));
    if (debug) events.textContent = describeEvent(detail);
  });
  view.addEventListener('layercast-error', ({ detail }) => {
    window.layercastErrors.push(detail);
    if (!['unknown_type', 'bad_field', 'bad_json'].includes(detail.code)) status.textContent = t.errors[detail.code] ?? t.errorFallback;
    if (debug) events.textContent = `error ${detail.code}: ${detail.message ?? ''}`;
  });
  main.append(view);
}
