/**
 * Whether two display lists hold the same item objects in the same order. The frame store shares
 * the items a delta does not change, so a frame that changes nothing gives the same items.
 * @param {object[] | null} a
 * @param {object[] | null} b
 */
export function sameItems(a, b) {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return false;
  return true;
}
