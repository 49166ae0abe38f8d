import { labelPosition } from './label-position.js';
import { markChinese } from './words.js';

const TOAST_MS = 2600;
const LABEL_MS = 1100;
const FEED_MS = 2000;

/**
 * The rain page's passing notices: a toast, the answer plate at the player's tap point (placed
 * by lib/label-position.js), the feed line of other players' wins, a flash of the stage's edge,
 * and the polite live region for screen readers, each taking itself away after a while.
 *
 * `elements`: `{stage, toast, tapLabel, announcer, feed}`. `announcements` collects every text
 * announced (the page's `rainState.announcements`). Where the player last pressed on the stage
 * is caught before the view's own handler (so create this before mounting the view).
 */
export function createNotices({ stage, toast, tapLabel, announcer, feed }, { announcements }) {
  let toastTimer = 0;
  let labelTimer = 0;
  let feedTimer = 0;
  /** Where the player last pressed on the stage (stage CSS pixels), for the tap answer. */
  let lastPress = null;

  stage.addEventListener('pointerdown', (event) => {
    const rect = stage.getBoundingClientRect();
    lastPress = { x: event.clientX - rect.left, y: event.clientY - rect.top };
  }, { capture: true });

  return {
    /** A toast of `kind` (a class of `.rain-toast`). */
    toast(text, kind) {
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
    },

    /**
     * The answer to the player's tap on a plate at the tap point, kept inside the stage: below
     * the point for a claimed packet (`win`, `lose`), whose own label the scene floats upwards.
     */
    tapLabel(text, kind) {
      clearTimeout(labelTimer);
      markChinese(tapLabel, text);
      tapLabel.className = `tap-label ${kind}`;
      tapLabel.hidden = false;
      const width = stage.clientWidth, height = stage.clientHeight;
      const box = tapLabel.getBoundingClientRect();
      const point = lastPress ?? { x: width / 2, y: height / 2 };
      const { x, y } = labelPosition({ point, box, width, height, below: kind === 'win' || kind === 'lose' });
      tapLabel.style.transform = `translate(${Math.round(x)}px, ${Math.round(y)}px)`;
      tapLabel.classList.remove('show');
      void tapLabel.offsetWidth;
      tapLabel.classList.add('show');
      labelTimer = setTimeout(() => {
        tapLabel.hidden = true;
        tapLabel.classList.remove('show');
      }, LABEL_MS);
    },

    /** Says `text` to screen readers (the polite live region). */
    announce(text) {
      announcements.push(text);
      announcer.textContent = '';
      // a new text node in a later task is announced even when it repeats the last one
      setTimeout(() => markChinese(announcer, text), 50);
    },

    /** A subtle flash of the stage's edge for a tap that hit nothing. */
    flash() {
      stage.classList.remove('missed');
      void stage.offsetWidth;
      stage.classList.add('missed');
    },

    /** A line in the HUD's feed (another player's win). */
    feed(text) {
      clearTimeout(feedTimer);
      markChinese(feed, text);
      feed.classList.add('show');
      feedTimer = setTimeout(() => feed.classList.remove('show'), FEED_MS);
    },

    /** Stops the notices' timers. */
    destroy() {
      clearTimeout(toastTimer);
      clearTimeout(labelTimer);
      clearTimeout(feedTimer);
    },
  };
}
