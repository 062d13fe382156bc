/**
 * A path glob as workflow authors write them: `**` spans folders, `*` and `?` stay inside one,
 * `{a,b}` picks one. A pattern without a slash matches a file name at any depth (`*.cu`), like
 * .gitignore, because that is what people mean by it.
 */
export function globToRegExp(pattern: string): RegExp {
  const anyDepth = !pattern.includes("/");
  let source = "";
  let braces = 0;
  for (let position = 0; position < pattern.length; position++) {
    const char = pattern.charAt(position);
    if (char === "*") {
      if (pattern.charAt(position + 1) === "*") {
        const slashAfter = pattern.charAt(position + 2) === "/";
        source += slashAfter ? "(?:.*/)?" : ".*";
        position += slashAfter ? 2 : 1;
      } else {
        source += "[^/]*";
      }
    } else if (char === "?") {
      source += "[^/]";
    } else if (char === "{") {
      braces += 1;
      source += "(?:";
    } else if (char === "}" && braces > 0) {
      braces -= 1;
      source += ")";
    } else if (char === "," && braces > 0) {
      source += "|";
    } else {
      source += char.replace(/[.+^$()|[\]\\]/g, "\\$&");
    }
  }
  source += ")".repeat(braces);
  return new RegExp(`^${anyDepth ? "(?:.*/)?" : ""}${source.replace(/^\.\//, "")}$`);
}

/**
 * A path filter from a list of globs: kept when some pattern matches (all are kept when there are
 * only exclusions) and no `!pattern` does.
 */
export function createPathFilter(patterns: readonly string[]): (path: string) => boolean {
  const include = patterns.filter((pattern) => !pattern.startsWith("!")).map(globToRegExp);
  const exclude = patterns.filter((pattern) => pattern.startsWith("!")).map((pattern) => globToRegExp(pattern.slice(1)));
  return (path) => (include.length === 0 || include.some((regexp) => regexp.test(path))) && !exclude.some((regexp) => regexp.test(path));
}
