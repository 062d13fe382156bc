/** Edits (insert, delete, replace, swap two neighbours) from one word to the other, ignoring case. */
function editDistance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  const rows = Array.from({ length: x.length + 1 }, (_, i) =>
    Array.from({ length: y.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number): number => rows[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i <= x.length; i++) {
    for (let j = 1; j <= y.length; j++) {
      const replace = at(i - 1, j - 1) + (x[i - 1] === y[j - 1] ? 0 : 1);
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, replace);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1);
      const row = rows[i];
      if (row) row[j] = best;
    }
  }
  return at(x.length, y.length);
}

/**
 * The name a misspelling most likely meant (`tolerence` → `tolerance`, `hots` → `host`), or null when
 * none is close: at most one edit in four letters (case is no edit), and a name is never its own fix.
 * A tie is no answer, since a suggestion that may be the wrong one sends a reader the wrong way.
 */
export function findClosestName(word: string, names: readonly string[]): string | null {
  const limit = Math.max(1, Math.floor(word.length / 4));
  let best: string | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  let tied = false;
  for (const name of names) {
    if (name === word) continue;
    const distance = editDistance(word, name);
    // Only the case differs (maxtokens): nothing is closer.
    if (distance === 0) return name;
    if (distance > limit) continue;
    if (distance < bestDistance) {
      best = name;
      bestDistance = distance;
      tied = false;
    } else if (distance === bestDistance && name !== best) {
      tied = true;
    }
  }
  return tied ? null : best;
}
