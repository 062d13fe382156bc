/** Code-unit order, the same on every runner whatever its locale, unlike localeCompare. */
export function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
