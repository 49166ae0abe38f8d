// A fake server for refusal.html: `welcome` with the features of ?features=, then a full frame
// with one red item; window.outcome gathers the view's errors, statuses, items and socket closes.
const features = new URLSearchParams(location.search).get('features').split(',');
const outcome = { errors: [], statuses: [], closed: [], items: null, connection: null };
window.outcome = outcome;

class FakeSocket {
  static CONNECTING = 0;
  static OPEN = 1;

  constructor() {
    this.readyState = FakeSocket.OPEN;
    setTimeout(() => {
      this.receive({ type: 'welcome', protocol: 2, room: 'lobby', scene: 'check', title: 'check', role: 'spectator',
                     client: 'c1', size: { width: 100, height: 100 }, fps: 30, interactions: [], assets: {}, time: 0, features });
      this.receive({ type: 'frame', n: 1, t: 0, full: true, items: [{ id: 1, s: [100, 100], bg: '#ff0000' }] });
    }, 10);
  }

  receive(message) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }

  send() {}

  close(code) {
    outcome.closed.push(code ?? null);
  }
}
window.WebSocket = FakeSocket;

const { mount } = await import('/public/layercast.js');
const handle = mount(document.getElementById('stage'), { scene: 'check', role: 'spectator' });
handle.on('error', (error) => outcome.errors.push(error));
handle.on('status', (status) => outcome.statuses.push(status));
setTimeout(() => {
  outcome.items = handle.items();
  outcome.connection = document.querySelector('canvas').dataset.connection;
}, 300);
