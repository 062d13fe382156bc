/**
 * One regular expression that matches `parts` one after the other, with the first part's flags: lets a
 * test hold a long message to a pattern written over several lines, each part a regex literal.
 */
export function concatPatterns(...parts: RegExp[]): RegExp {
  return new RegExp(parts.map((part) => part.source).join(""), parts[0]?.flags ?? "");
}
