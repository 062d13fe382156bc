/**
 * One regular expression that matches where any of `alternatives` does: their sources joined by `|`,
 * with `flags`. Lets a long alternation of log messages be written one message a line. Each alternative
 * must be a whole branch: its flags are ignored, and a `^` or `$` in it anchors that branch alone.
 */
export function anyOf(alternatives: readonly RegExp[], flags = ""): RegExp {
  return new RegExp(alternatives.map((alternative) => alternative.source).join("|"), flags);
}
