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

/** The bar itself, with the digits it has (1.047×, not 1.05×, when the noise floor made it 1.0473). */
export function formatBar(bar: number): string {
  for (let digits = 2; digits <= 4; digits++) {
    if (Number(bar.toFixed(digits)) === bar) return `${bar.toFixed(digits)}×`;
  }
  return `${bar.toFixed(4)}×`;
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
