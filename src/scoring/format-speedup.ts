/** A speedup as the card prints it: two decimals, more for a tiny one. */
export function formatTimes(value: number | null): string {
  if (value === null) return "—";
  // Two decimals hide a miss at the bar (0.996× reads as 1.00×); show more until it is visible.
  return `${value.toFixed(Math.abs(value) >= 100 ? 1 : value !== 0 && Math.abs(value) < 0.01 ? 4 : 2)}×`;
}

/** A value next to the bar it is compared with, with as many digits as it takes to tell them apart. */
export function formatScoreAgainstBar(value: number, bar: number): string {
  for (let digits = 2; digits <= 6; digits++) {
    const shown = value.toFixed(digits);
    if (shown !== bar.toFixed(digits) || value === bar) return `${shown}×`;
  }
  return `${value.toFixed(6)}×`;
}

/**
 * The bar, rounded for people: two decimals (a noise floor's 1.0473 reads 1.05×; "< 2.1626×" told nobody more).
 * Next to the value it is compared with (`against`), as many more as it takes to tell the two apart, so "1.047× <
 * 1.05×" never reads as a pass: "1.0470× < 1.0473×". formatScoreAgainstBar gives the value the same digits.
 */
export function formatBar(bar: number, against?: number): string {
  // A bar with two decimals is shown exactly: the value beside it takes the digits that tell them apart (0.99996× < 1.00×).
  if (against === undefined || Number(bar.toFixed(2)) === bar) return `${bar.toFixed(2)}×`;
  for (let digits = 2; digits <= 6; digits++) {
    const shown = bar.toFixed(digits);
    if (shown !== against.toFixed(digits) || bar === against) return `${shown}×`;
  }
  return `${bar.toFixed(6)}×`;
}

export function formatPercent(fraction: number): string {
  return `${Math.round(fraction * 1000) / 10}%`;
}

/** A share next to the limit it is compared with, with as many digits as it takes to tell them apart (10.04%, not 10%). */
export function formatPercentAgainst(fraction: number, limit: number): string {
  if (formatPercent(fraction) !== formatPercent(limit) || fraction === limit) return formatPercent(fraction);
  for (let digits = 2; digits <= 6; digits++) {
    const shown = (fraction * 100).toFixed(digits);
    if (shown !== (limit * 100).toFixed(digits)) return `${shown}%`;
  }
  return `${(fraction * 100).toFixed(6)}%`;
}
