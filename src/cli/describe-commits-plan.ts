import Dockerode from "dockerode";
import { type CommitChange, decideBuilds, planCommitChange } from "../commits/plan-commit-change.js";
import type { LoadedRound } from "../config/load-round-config.js";
import { DEFAULT_REVISION_LABEL, type RevisionSource } from "../config/source-settings-schema.js";
import { isAncestor } from "../git/compare-commits.js";
import { resolveCommit } from "../git/resolve-commit.js";

const short = (sha: string): string => sha.slice(0, 12);

function listed(change: CommitChange): string {
  if (change.files.length === 0) return "no file";
  const names = change.files
    .slice(0, 5)
    .map((file) => file.path)
    .join(", ");
  const more = change.files.length > 5 ? `, … ${change.files.length - 5} more` : "";
  const left =
    change.leftOut.length > 0
      ? `; ${change.leftOut.length} changed file${change.leftOut.length === 1 ? "" : "s"} outside source.paths left out`
      : "";
  return `${change.files.length} file${change.files.length === 1 ? "" : "s"} (${names}${more})${left}`;
}

function describeSource(source: RevisionSource): string {
  if ("label" in source) return `label ${source.label}`;
  if ("file" in source) return `file ${source.file}${source.pattern ? ` (pattern ${source.pattern})` : ""}`;
  return "source.revision.commit";
}

/**
 * The image's commit as far as a dry run can tell without creating anything: from the config, or from
 * the image's label when the image is on this machine. A file in the image is read when the round runs.
 */
async function readRevisionForCheck(round: LoadedRound): Promise<{ written: string | null; why: string }> {
  const { config } = round;
  const source = config.source.revision;
  if ("commit" in source) return { written: source.commit, why: "source.revision.commit" };
  if (!("label" in source)) return { written: null, why: `read from ${describeSource(source)} in the image when the round runs` };
  if (!config.baseline.image) return { written: null, why: `read from the ${source.label} label of the built image when the round runs` };
  try {
    const info = await new Dockerode().getImage(config.baseline.image).inspect();
    const value = info.Config.Labels?.[source.label];
    return value
      ? { written: value.trim(), why: `label ${source.label}` }
      : {
          written: null,
          why:
            `the image on this machine has no label ` +
            `${source.label}${source.label === DEFAULT_REVISION_LABEL ? " (set source.revision to where its commit is written)" : ""}: ` +
            `the round would end with image_base_mismatch`,
        };
  } catch {
    return {
      written: null,
      why: `read from label ${source.label} when the round runs (the image is not on this machine, or no Docker daemon answers)`,
    };
  }
}

/**
 * What `speedgate run --check --base … --head …` says about the commits: which commits each engine
 * runs, what the overlay changes (the image's commit to the base, the merge base to the head), whether
 * a build will run, and, where this machine can tell, whether the image can reach the base at all.
 */
export async function describeCommitsPlan(round: LoadedRound): Promise<string[]> {
  const commits = round.commits;
  if (!commits) return [];
  const { config } = round;
  const lines = [
    `base ${short(commits.base)} (${commits.baseRef}), head ${short(commits.head)} (${commits.headRef}), in the repository ` +
      `${commits.repoDir}`,
    commits.mergeBase === commits.base
      ? "the head is up to date with the base: the candidate is the head"
      : `the head branched off at ${short(commits.mergeBase)}: the candidate is the base with the pull request's changes since then ` +
        `applied`,
  ];
  const head = await planCommitChange(commits.repoDir, commits.mergeBase, commits.head, config.source);
  if (config.runtime === "process") {
    const builds = decideBuilds(null, head);
    lines.push(
      `each engine runs in a git worktree of its commit, in ` +
        `${config.baseline.cwd ?? "the repository's root"}${config.candidate.cwd ? ` (candidate: ${config.candidate.cwd})` : ""}; both ` +
        `are removed after the round`,
      `the pull request changes ${listed(head)}`,
      `build (source.build): ` +
        `${builds.candidate.run ? `runs in both worktrees: ${builds.candidate.reason}` : `none: ${builds.candidate.reason}`}`,
    );
    return lines;
  }
  const revision = await readRevisionForCheck(round);
  const image = config.baseline.image ?? "the image baseline.build makes";
  if (!revision.written) {
    const builds = decideBuilds(null, head);
    const build = builds.candidate.run
      ? `runs in both engines: ${builds.candidate.reason}`
      : `${builds.candidate.reason}; the baseline builds too if compiled code changed between the image's commit and the base`;
    lines.push(
      `engine image ${image}, its source in ${config.candidate.sourceDir ?? "?"}; its commit: ${revision.why}`,
      `candidate overlay: ${listed(head)}`,
      `build (source.build): ${build}`,
    );
    return lines;
  }
  const imageCommit = await resolveCommit(commits.repoDir, revision.written.toLowerCase());
  if (!imageCommit) {
    lines.push(
      `engine image ${image} at ${revision.written} (${revision.why}): that commit is not in the repository, so the round would end ` +
        `with image_base_mismatch (fetch it, or the full history)`,
    );
    return lines;
  }
  lines.push(`engine image ${image} at ${short(imageCommit)} (${revision.why}), its source in ${config.candidate.sourceDir ?? "?"}`);
  if (!(await isAncestor(commits.repoDir, imageCommit, commits.base))) {
    lines.push(`the image's commit is not an ancestor of the base: the round would end with image_base_mismatch before any engine starts`);
    return lines;
  }
  const base = await planCommitChange(commits.repoDir, imageCommit, commits.base, config.source);
  const builds = decideBuilds(base, head);
  lines.push(
    `baseline overlay (image's commit to the base): ` +
      `${listed(base)}${config.source.cacheBaseline ? "; the result is cached for every pull request on this base" : ""}`,
    `candidate overlay (the pull request): ${listed(head)}`,
    `build (source.build): baseline ${builds.baseline.run ? "runs" : "none"} (${builds.baseline.reason}); candidate ` +
      `${builds.candidate.run ? "runs" : "none"} (${builds.candidate.reason})`,
  );
  return lines;
}
