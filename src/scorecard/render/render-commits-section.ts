import { escapeInline } from "../../safe-text/escape-engine-text.js";
import { renderFold } from "./render-key-value-table.js";
import { cleanLogLine } from "../../safe-text/sanitize-log-tail.js";
import type { CardCommitSide, Scorecard } from "../scorecard-schema.js";

const short = (sha: string | null): string => (sha ? `\`${sha.slice(0, 12)}\`` : "—");

function seconds(ms: number | null): string {
  return ms === null ? "" : ` in ${(ms / 1000).toFixed(1)} s`;
}

/** How the baseline image was found: made for this base now, reused from an earlier round, or the image itself. */
function describeCache(side: CardCommitSide): string {
  switch (side.cache) {
    case "hit":
      return "cached baseline for this base, reused (no overlay build)";
    case "miss":
      return `built for this base${seconds(side.overlayMs)} and cached for the next pull request on it`;
    case "none":
      return "the image's source is at the base already";
    default:
      return "";
  }
}

type Escape = (text: string) => string;
const plain: Escape = cleanLogLine;

function describeOverlay(side: CardCommitSide, role: "baseline" | "candidate", esc: Escape): string {
  if (side.overlayFiles === null) return role === "baseline" && side.cache === "hit" ? "—" : "its own worktree of the commit";
  if (side.overlayFiles === 0) return "no file changed";
  const listed = side.overlayPaths.slice(0, 5).map(esc).join(", ");
  const more = side.overlayFiles - Math.min(5, side.overlayPaths.length);
  return (
    `${side.overlayFiles} file${side.overlayFiles === 1 ? "" : "s"} ` +
    `(${listed}${more > 0 ? `, … ${more} more` : ""})${seconds(side.overlayMs)}`
  );
}

function describeBuild(side: CardCommitSide, esc: Escape): string {
  const { build } = side;
  if (!build.ran) return `none: ${esc(build.reason)}`;
  const cache = build.cache === null ? "" : `; build cache ${build.cache}${build.hit === null ? "" : build.hit ? ", hit" : ", missed"}`;
  return `ran${seconds(build.ms)}${cache}: ${esc(build.reason)}`;
}

/**
 * Base/head mode, as one small folded table: what each engine ran (the base, and the head merged onto
 * it), which image and commit both were made from, whether the baseline came from the per-base cache,
 * and whether a build ran. The facts line above has the commits in short. Empty for a card of the
 * fixed-baseline mode.
 */
export function renderCommitsSection(card: Scorecard): string {
  const commits = card.commits;
  if (!commits) return "";
  const rows: string[][] = [];
  if (commits.image) {
    rows.push([
      "Engine image",
      `${escapeInline(commits.image)} at ` +
        `${short(commits.imageRevision)}${commits.imageRevisionFrom ? ` (${escapeInline(commits.imageRevisionFrom)})` : ""}`,
    ]);
  }
  const behind =
    commits.mergeBase === commits.base
      ? ""
      : ` (branched off at ${short(commits.mergeBase)}; its changes since then are applied on the base)`;
  rows.push(["Baseline", `the base ${short(commits.base)}`], ["Candidate", `the head ${short(commits.head)}${behind}`]);
  for (const role of ["baseline", "candidate"] as const) {
    const side = commits[role];
    if (!side) continue;
    const name = role === "baseline" ? "Baseline" : "Candidate";
    if (role === "baseline" && side.cache !== null) rows.push([`${name} image`, describeCache(side)]);
    rows.push([`${name} overlay`, describeOverlay(side, role, escapeInline)]);
    rows.push([`${name} build`, describeBuild(side, escapeInline)]);
    if (side.leftOut > 0)
      rows.push([`${name} files left out`, `${side.leftOut} changed file${side.leftOut === 1 ? "" : "s"} outside \`source.paths\``]);
  }
  const table = [
    "| | |",
    "| --- | --- |",
    ...rows.map(([key, value]) => `| ${key} | ${(value ?? "").replace(/\|/g, "\\|").replace(/\n/g, " ")} |`),
  ].join("\n");
  const built = (["baseline", "candidate"] as const).filter((role) => commits[role]?.build.ran);
  const summary =
    `Commits, baseline cache and build: the base ${commits.base.slice(0, 12)} against the head ` +
    `${commits.head.slice(0, 12)}${built.length > 0 ? `; built: ${built.join(" and ")}` : "; no build"}`;
  return renderFold(summary, table);
}

/** The same facts as plain lines, for the terminal card. */
export function renderCommitsText(card: Scorecard): string[] {
  const commits = card.commits;
  if (!commits) return [];
  const merged = commits.mergeBase === commits.base ? "" : ` (merged onto the base from ${commits.mergeBase.slice(0, 12)})`;
  const lines = [`Commits: baseline = base ${commits.base.slice(0, 12)}, candidate = head ${commits.head.slice(0, 12)}${merged}`];
  if (commits.image)
    lines.push(
      `  engine image ${plain(commits.image)} at ` +
        `${commits.imageRevision?.slice(0, 12) ?? "?"}${commits.imageRevisionFrom ? ` (${plain(commits.imageRevisionFrom)})` : ""}`,
    );
  for (const role of ["baseline", "candidate"] as const) {
    const side = commits[role];
    if (!side) continue;
    const cache = role === "baseline" && side.cache !== null ? `; image: ${describeCache(side)}` : "";
    lines.push(`  ${role}: overlay ${describeOverlay(side, role, plain)}${cache}; build ${describeBuild(side, plain)}`);
  }
  return lines;
}
