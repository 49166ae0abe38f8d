/**
 * embed.html?scene=…&room=…&role=…[&server=…][&token=…|&player=…][&overlay=1][&parentOrigin=…]: a full-window view
 * for an <iframe>. It tells the parent page `{source: "layercast", type: "ready", scene, room}`
 * when the first welcome arrives and `{source: "layercast", type: "event", event}` for each
 * scene event, posted only to one origin: `parentOrigin` if given, else the origin of the
 * referring page; with neither (or when not framed) nothing is posted.
 */
import './layercast-view.js';

const params = new URLSearchParams(location.search);

/** The http(s) origin of `url`, or null. */
function originOf(url) {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : null;
  } catch {
    return null;
  }
}

const targetOrigin = window.parent === window
  ? null
  : params.has('parentOrigin') ? originOf(params.get('parentOrigin')) : originOf(document.referrer);

/** Posts `message` to the parent page at the target origin, if there is one. */
function post(message) {
  if (targetOrigin) window.parent.postMessage({ source: 'layercast', ...message }, targetOrigin);
}

const view = document.createElement('layercast-view');
for (const name of ['scene', 'room', 'role', 'server', 'token', 'player']) {
  if (params.get(name)) view.setAttribute(name === 'role' ? 'viewer-role' : name, params.get(name));
}
view.addEventListener('layercast-mount', ({ detail }) => {
  window.layercastView = detail; // for tests, as scene.html
});
let ready = false;
view.addEventListener('layercast-welcome', ({ detail }) => {
  if (ready) return;
  ready = true;
  post({ type: 'ready', scene: detail.scene, room: detail.room });
});
view.addEventListener('layercast-event', ({ detail }) => post({ type: 'event', event: detail }));
document.body.append(view);
