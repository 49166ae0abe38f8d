/**
 * scene.html?scene=…&room=…&role=…[&server=…][&token=…|&player=…][&overlay=1]: one scene filling the window, with
 * a status bar (connection state, last scene event in #events).
 *
 * For tests: `window.layercastView` is the mounted view's handle, `window.layercastErrors`
 * collects the server's `error` messages.
 */
import './layercast-view.js';
import { describeEvent } from './lib/describe-event.js';

const params = new URLSearchParams(location.search);
const title = document.getElementById('title');
const state = document.getElementById('state');
const events = document.getElementById('events');
window.layercastErrors = [];

/** Shows the connection state. */
function showState(text, kind) {
  state.textContent = text;
  state.className = `state ${kind}`;
}

const scene = params.get('scene');
if (!scene) {
  showState('no scene given', 'stopped');
  events.innerHTML = 'Open a scene from <a href="./">the list</a>.';
} else {
  const view = document.createElement('layercast-view');
  for (const name of ['scene', 'room', 'role', 'server', 'token', 'player']) {
    if (params.get(name)) view.setAttribute(name, params.get(name));
  }
  const room = params.get('room') || 'lobby';
  title.textContent = `${scene} · ${room}`;

  view.addEventListener('layercast-mount', ({ detail }) => {
    window.layercastView = detail;
  });
  view.addEventListener('layercast-welcome', ({ detail }) => {
    title.textContent = `${detail.title || detail.scene} · ${detail.room}${detail.role === 'spectator' ? ' (watching)' : ''}`;
    document.title = `${detail.title || detail.scene} – Layercast`;
  });
  view.addEventListener('layercast-status', ({ detail }) => {
    if (detail.connected) showState('connected', 'connected');
    else if (detail.stopped) showState(`stopped: ${detail.stopped}`, 'stopped');
    else if (detail.retryInMs !== undefined) showState(`reconnecting in ${(detail.retryInMs / 1000).toFixed(1)} s`, '');
    else showState('disconnected', '');
  });
  view.addEventListener('layercast-event', ({ detail }) => {
    events.textContent = describeEvent(detail);
  });
  view.addEventListener('layercast-error', ({ detail }) => {
    window.layercastErrors.push(detail);
    events.textContent = `error ${detail.code}: ${detail.message ?? ''}`;
  });
  document.body.prepend(view);
}
