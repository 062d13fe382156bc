import { readdir, stat } from "node:fs/promises";
import { join, relative, resolve, sep } from "node:path";
import { ConfigError } from "../vocabulary/config-error.js";
import { globToRegExp } from "../patch/glob-to-regexp.js";
import { compareIds } from "../scoring/compare-ids.js";

const CARD_FILE = "scorecard.json";

async function walk(folder: string, found: string[]): Promise<void> {
  const entries = await readdir(folder, { withFileTypes: true });
  for (const entry of entries) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) await walk(path, found);
    else if (entry.isFile()) found.push(path);
  }
}

async function kindOf(path: string): Promise<"file" | "folder" | null> {
  try {
    const info = await stat(path);
    return info.isDirectory() ? "folder" : "file";
  } catch {
    return null;
  }
}

/** The folder a glob's matches are under: its segments before the first one with a wildcard. */
function globBase(pattern: string): string {
  const segments = pattern.split("/");
  const wild = segments.findIndex((segment) => /[*?{]/.test(segment));
  return segments.slice(0, wild === -1 ? segments.length : wild).join("/") || ".";
}

/**
 * The card files that `specs` name: a file as is, every scorecard.json under a folder (what
 * actions/download-artifact leaves: one folder per shard's artifact), or the files a glob matches.
 * `label` names the input in errors.
 */
export async function findCardFiles(specs: readonly string[], label: string, cwd = process.cwd()): Promise<string[]> {
  const files = new Set<string>();
  for (const spec of specs) {
    const path = resolve(cwd, spec);
    const kind = await kindOf(path);
    const matched: string[] = [];
    if (kind === "file") {
      matched.push(path);
    } else if (kind === "folder") {
      const found: string[] = [];
      await walk(path, found);
      matched.push(...found.filter((file) => file.endsWith(`${sep}${CARD_FILE}`)));
    } else if (/[*?{]/.test(spec)) {
      const base = resolve(cwd, globBase(spec));
      const matcher = globToRegExp(relative(cwd, path).split(sep).join("/"));
      const found: string[] = [];
      if ((await kindOf(base)) === "folder") await walk(base, found);
      matched.push(...found.filter((file) => matcher.test(relative(cwd, file).split(sep).join("/"))));
    } else {
      throw new ConfigError(`${label}: expected a file, folder or glob of shard cards, but ${spec} does not exist`);
    }
    if (matched.length === 0) throw new ConfigError(`${label}: expected shard cards (${CARD_FILE}) in ${spec}, found none`);
    for (const file of matched) files.add(file);
  }
  return [...files].sort(compareIds);
}
