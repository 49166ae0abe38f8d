import { leaderboardRows, missingFromLeaderboard, ownResults, resultsSummary } from './rain-results.js';
import { markChinese } from './words.js';

/**
 * The rain page's results card (rain.html's `#results`): after a rain, its summary, the
 * player's own lines and the room's leaderboard, loaded each time the card shows (what it says
 * is lib/rain-results.js). A slow leaderboard answer for a card since hidden or shown again is
 * dropped.
 *
 * `elements`: `{root, close, summary, mine, rows, note, total}`. `options`: the words `t`,
 * `spectator`, `viewer()` (the viewer's public id, or undefined), `loadPlayers()` (resolves to
 * the leaderboard's `players`, rejects when it cannot), `onLeaderboard(players | null)` (told
 * what was loaded, null when it failed) and `onClose()` (the player closed the card).
 */
export function createResultsCard(elements, { t, spectator, viewer, loadPlayers, onLeaderboard, onClose }) {
  /** Bumped with each results view, so a slow leaderboard answer for an older one is dropped. */
  let generation = 0;

  elements.close.addEventListener('click', () => {
    elements.root.classList.remove('show');
    elements.root.hidden = true;
    onClose();
  });

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

  function renderLeaderboard(players) {
    const me = viewer();
    if (!players.length) {
      elements.rows.replaceChildren(messageRow(t.leaderboardEmpty));
      return;
    }
    elements.rows.replaceChildren(...leaderboardRows(players, me).map((entry) => {
      const row = document.createElement('tr');
      if (entry.me) row.className = 'me';
      row.dataset.player = entry.player;
      const rank = cell(entry.rank, 'rank');
      if (entry.medal) rank.dataset.medal = entry.medal;
      row.append(rank, cell(entry.name, 'name'), cell(entry.coins, 'coins'));
      return row;
    }));
    elements.note.textContent = missingFromLeaderboard(players, me, spectator) ? t.notInTop : '';
  }

  async function loadLeaderboard(shown) {
    try {
      const players = await loadPlayers();
      if (shown !== generation) return;
      onLeaderboard(players);
      renderLeaderboard(players);
    } catch {
      if (shown !== generation) return;
      onLeaderboard(null);
      elements.rows.replaceChildren(messageRow(t.leaderboardMissing));
    }
  }

  return {
    /** Shows the card for the rain `data` (a `rain` event in phase `results`) and loads the leaderboard. */
    show(data, { playing, rainCoins, total }) {
      const shown = ++generation;
      markChinese(elements.summary, resultsSummary(data, t));
      const own = ownResults({ playing, rainCoins, total }, t);
      if (own.mine) markChinese(elements.mine, own.mine);
      else elements.mine.textContent = '';
      if (own.total) markChinese(elements.total, own.total);
      else elements.total.textContent = '';
      elements.rows.replaceChildren(messageRow(t.leaderboardLoading));
      elements.note.textContent = '';
      elements.root.hidden = false;
      requestAnimationFrame(() => elements.root.classList.add('show'));
      loadLeaderboard(shown);
    },

    /** Hides the card; a leaderboard still loading for it is dropped. */
    hide() {
      generation += 1;
      elements.root.classList.remove('show');
      elements.root.hidden = true;
    },
  };
}
