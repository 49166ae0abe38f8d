/**
 * `<layercast-view scene="radar" room="lobby" viewer-role="player" server="…" token="…" player="anon-…" overlay>`: a custom
 * element that mounts a Layercast view in itself while it is in the document, mounts again
 * when an attribute changes, and destroys the view when removed.
 *
 * `viewer-role` is the viewer's role (`player` or `spectator`); `role` is still read when it is
 * absent, but it is also the ARIA attribute (`role="spectator"` is an invalid ARIA role to
 * assistive technology), so pages should use `viewer-role`.
 *
 * The handle of the current mount is `element.handle` (null while unmounted). Each mount
 * dispatches `layercast-mount` (detail: the handle); the handle's events are dispatched as
 * `layercast-welcome`, `layercast-frame`, `layercast-event`, `layercast-error` and
 * `layercast-status`, with the event's payload as `detail`. All bubble.
 */
import { mount } from './layercast.js';

const EVENTS = ['welcome', 'frame', 'event', 'error', 'status'];

export class LayercastView extends HTMLElement {
  static observedAttributes = ['scene', 'room', 'viewer-role', 'role', 'server', 'token', 'player', 'overlay'];

  constructor() {
    super();
    this.handle = null;
    this.pending = false;
  }

  connectedCallback() {
    this.scheduleMount();
  }

  disconnectedCallback() {
    this.unmount();
  }

  attributeChangedCallback() {
    this.scheduleMount();
  }

  /** Mounts again once the current task's attribute changes are done (one mount for several). */
  scheduleMount() {
    if (this.pending) return;
    this.pending = true;
    queueMicrotask(() => {
      this.pending = false;
      this.unmount();
      if (this.isConnected && this.getAttribute('scene')) this.mountView();
    });
  }

  /** Mounts a view with the current attributes and relays its events. */
  mountView() {
    const handle = mount(this, {
      scene: this.getAttribute('scene'),
      room: this.getAttribute('room') || undefined,
      role: this.getAttribute('viewer-role') || this.getAttribute('role') || undefined,
      server: this.getAttribute('server') || undefined,
      token: this.getAttribute('token') || undefined,
      player: this.getAttribute('player') || undefined,
      overlay: this.hasAttribute('overlay') || undefined,
    });
    for (const name of EVENTS) handle.on(name, (detail) => this.relay(name, detail));
    this.handle = handle;
    this.relay('mount', handle);
  }

  /** Destroys the current view, if any. */
  unmount() {
    this.handle?.destroy();
    this.handle = null;
  }

  /** Dispatches `layercast-<name>` with `detail`. */
  relay(name, detail) {
    this.dispatchEvent(new CustomEvent(`layercast-${name}`, { detail, bubbles: true, composed: true }));
  }
}

if (!customElements.get('layercast-view')) {
  // Custom elements are inline by default; make it a block, at zero specificity so any page style wins.
  const defaults = document.createElement('style');
  defaults.textContent = ':where(layercast-view) { display: block; }';
  document.head.prepend(defaults);
  customElements.define('layercast-view', LayercastView);
}
