import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { resolveRoundCommits } from "../../src/config/resolve-round-commits.js";
import { LABEL_BASELINE_BASE } from "../../src/docker/prepare-commit-images.js";
import { readImageFile } from "../../src/docker/read-image-file.js";
import { LABEL_RUN_ID } from "../../src/docker/resource-labels.js";
import { createRecordingLogger } from "../../src/logger.js";
import { runRound } from "../../src/round/run-round.js";
import type { Scorecard } from "../../src/scorecard/scorecard-schema.js";
import { BASELINE_PROFILE, ENGINE_SOURCE_DIR } from "../../harness/docker/build-test-engine-image.js";
import { dockerTestContext } from "../support/docker/docker-test-context.js";
import { labelTestImage } from "../../harness/docker/label-test-image.js";
import { listRunResources } from "../support/docker/list-run-resources.js";
import { makeDockerRound } from "../../harness/docker/make-docker-round.js";
import { type GitRepository, makeGitRepository } from "../support/git/make-git-repository.js";
import { getFreePort } from "../support/get-free-port.js";
import { makeTempDir } from "../support/make-temp-dir.js";
import { writeDockerRound } from "../support/docker/write-docker-round.js";
import { runCli } from "../cli/support/sim-round.js";
import { EXIT_IMAGE_BASE_MISMATCH } from "../../src/cli/commands/run-command.js";
import { readScorecard } from "../../src/scorecard/read-scorecard.js";
import { describeVerdict } from "../../src/scorecard/render/describe-card.js";
import { join } from "node:path";
import { writeFile } from "node:fs/promises";

const context = dockerTestContext();

/** The reference engine's profile as the test image has it (ttft 30 ms, itl 48 ms), with some defaults changed. */
function profile(defaults: Partial<(typeof BASELINE_PROFILE)["defaults"]> = {}): string {
  return `${JSON.stringify({ ...BASELINE_PROFILE, defaults: { ...BASELINE_PROFILE.defaults, ...defaults } }, null, 2)}\n`;
}

/**
 * The engine image's own profile, at the commit it was built from: a first token after 3 s. A
 * sleeping engine is never faster than its profile, however busy the machine, so a baseline that
 * answers well under that cannot be running the image's code. Seconds, not 600 ms against a bar of
 * 400 ms: a round's six requests are in flight together, so a stall of the test process of 400 ms
 * would have put the base's 5 ms first tokens over that bar; no round runs the image's own profile.
 */
const IMAGE_PROFILE = profile({ ttftMs: 3000 });
/** Under this median first token, the baseline runs the base's code, not the image's (3 s). */
const BELOW_IMAGE_TTFT_MS = 1500;
/** main, later: the base made the first token 600 times faster (3000 -> 5 ms). */
const BASE_PROFILE = profile({ ttftMs: 5, itlMs: 1 });
/** How long a round may take on a busy 2-core machine with a vfs daemon (every image layer is a full copy). */
const ROUNDS_TIMEOUT_MS = 420_000;

/** A build that "compiles" kernel/version into the source tree, using the runner's cache and saying whether it hit. */
const KERNEL_BUILD = [
  "sh",
  "-c",
  [
    'v=$(cat kernel/version); if [ -e "$SPEEDGATE_BUILD_CACHE/k-$v" ]; then echo "kernel cache hit $v"; else echo "compiling kernel $v";',
    'if [ "$SPEEDGATE_BUILD_CACHE_READONLY" != 1 ]; then : > "$SPEEDGATE_BUILD_CACHE/k-$v"; fi; fi;',
    "cat kernel/version > built-kernel",
  ].join(" "),
];

describe.skipIf(!context)("base/head rounds with runtime: docker (real daemon, real git repository)", () => {
  const { docker, image } = context ?? { docker: null, image: "" };
  const runIds: string[] = [];
  const cleanups: Array<() => Promise<void>> = [];
  // Every cached baseline and build cache volume of this file is named after this engine, and removed at the end.
  const engine = `sim-${randomUUID().slice(0, 8)}`;
  let repo: GitRepository;
  /** The repository's commits, by what each is in the story. */
  const c = { root: "", image: "", base: "", pr1: "", pr2: "", old: "", claimed: "", claimedBase: "", kernelBase: "", kernelPr: "" };
  let labelled = "";

  beforeAll(async () => {
    if (!docker) return;
    repo = await makeGitRepository();
    c.root = await repo.commit("start", { "README.md": "engine\n" });
    c.image = await repo.commit("the commit the image was built from", { "profile.json": IMAGE_PROFILE });
    c.base = await repo.commit("main moves on: a faster engine", { "profile.json": BASE_PROFILE });
    // A pull request whose change touches lines main changed after the image: as a patch it cannot apply to the image.
    await repo.git("checkout", "--quiet", "-b", "pr-1", c.base);
    c.pr1 = await repo.commit("pull request 1: faster first token", { "profile.json": profile({ ttftMs: 2, itlMs: 1 }) });
    await repo.git("checkout", "--quiet", "-b", "pr-2", c.base);
    c.pr2 = await repo.commit("pull request 2: documentation", { "docs/notes.md": "notes\n" });
    // A branch that left main before the image's commit: the image cannot be brought there.
    await repo.git("checkout", "--quiet", "-b", "old", c.root);
    c.old = await repo.commit("an old branch", { "README.md": "old engine\n" });
    // The image claims a commit whose profile is not the image's: the base's diff cannot apply to what the image holds.
    await repo.git("checkout", "--quiet", "-b", "claimed", c.image);
    c.claimed = await repo.commit("a commit the image was not built from", { "profile.json": profile({ itlMs: 7 }) });
    c.claimedBase = await repo.commit("its descendant", { "profile.json": profile({ itlMs: 8 }) });
    // Compiled code: the base adds a kernel, one pull request changes it, another does not.
    await repo.git("checkout", "--quiet", "-b", "kernel", c.base);
    c.kernelBase = await repo.commit("add a kernel", { "kernel/version": "1\n" });
    c.kernelPr = await repo.commit("pull request: a new kernel", { "kernel/version": "2\n" });
    const made = await labelTestImage(
      docker,
      image,
      { "org.opencontainers.image.revision": c.image },
      { [`${ENGINE_SOURCE_DIR}/profile.json`]: IMAGE_PROFILE },
    );
    labelled = made.image;
    cleanups.push(made.remove);
  });

  afterEach(async () => {
    for (const runId of runIds.splice(0)) {
      if (!docker) continue;
      expect(await listRunResources(docker, runId)).toEqual({ containers: [], networks: [] });
      const images = await docker.listImages({ all: true, filters: { label: [`${LABEL_RUN_ID}=${runId}`] } });
      expect(images.map((info) => info.RepoTags)).toEqual([]);
    }
  });

  afterAll(async () => {
    if (!docker) return;
    // Cached baselines outlive rounds by design: this file's go with it, then the image they were built on.
    const cached = await docker.listImages({ filters: { reference: [`speedgate-baseline:${engine}-*`] } });
    for (const info of cached)
      await docker
        .getImage(info.Id)
        .remove({ force: true })
        .catch(() => undefined);
    for (const cleanup of cleanups.reverse()) await cleanup();
    await docker
      .getVolume(`speedgate-build-cache-${engine}`)
      .remove()
      .catch(() => undefined);
  });

  async function playRound(
    base: string,
    head: string,
    options: { image?: string; baseline?: Record<string, unknown>; source?: Record<string, unknown>; keepCandidateImage?: boolean } = {},
  ): Promise<{ card: Scorecard; runId: string; sinceS: number }> {
    const { round, runId } = makeDockerRound({
      ...(options.keepCandidateImage ? { docker: { keepCandidateImage: true } } : {}),
      image: options.image ?? labelled,
      port: await getFreePort(),
      patch: null,
      engine,
      candidate: { sourceDir: ENGINE_SOURCE_DIR },
      ...(options.baseline ? { baseline: options.baseline } : {}),
      ...(options.source ? { source: options.source } : {}),
      prompts: 6,
      bench: { maxTokens: 16 },
    });
    const commits = await resolveRoundCommits(round.config, { repoDir: repo.dir, base, head });
    runIds.push(runId);
    const sinceS = Math.floor(Date.now() / 1000) - 1;
    const card = await runRound({
      round: { ...round, commits },
      logger: createRecordingLogger(),
      signal: new AbortController().signal,
      runId,
    });
    return { card, runId, sinceS };
  }

  async function containersCreated(runId: string, sinceS: number): Promise<string[]> {
    if (!docker) return [];
    const events = await docker.getEvents({
      since: sinceS,
      until: Math.ceil(Date.now() / 1000) + 1,
      filters: { type: ["container"], event: ["create"], label: [`${LABEL_RUN_ID}=${runId}`] },
    });
    const created: string[] = [];
    for await (const chunk of events as AsyncIterable<Buffer>)
      created.push(
        ...String(chunk)
          .split("\n")
          .filter((line) => line.trim() !== ""),
      );
    return created;
  }

  it(
    "scores a pull request against its base when its diff cannot apply to the image's commit, and the baseline runs the base's code",
    async () => {
      if (!docker) return;
      // Today's model (the image plus the pull request's diff) cannot even start: the diff was made against the moved base.
      const diff = await repo.git("diff", c.base, c.pr1);
      const { round, runId } = makeDockerRound({ image: labelled, port: await getFreePort(), patch: `${diff}\n`, prompts: 6 });
      runIds.push(runId);
      const asPatch = await runRound({ round, logger: createRecordingLogger(), signal: new AbortController().signal, runId });
      expect(asPatch.failure).toMatchObject({ engine: "candidate", kind: "patch_conflict" });

      const { card } = await playRound(c.base, c.pr1);
      expect(card.failure).toBeNull();
      expect(card.promptsScored).toBe(6);
      expect(card.commits).toMatchObject({ base: c.base, head: c.pr1, mergeBase: c.base, image: labelled, imageRevision: c.image });
      expect(card.commits?.imageRevisionFrom).toBe("label org.opencontainers.image.revision");
      expect(card.commits?.baseline).toMatchObject({ commit: c.base, cache: "miss", overlayFiles: 1, overlayPaths: ["profile.json"] });
      expect(card.commits?.candidate).toMatchObject({ commit: c.pr1, overlayFiles: 1, cache: null });
      // The image's engine answers its first token after 3 s, the base's after 5 ms: never faster than its
      // profile, an engine answering in under 1.5 s can only be running the base's code.
      expect(card.metrics?.baseline.ttftMs.median).toBeLessThan(BELOW_IMAGE_TTFT_MS);
      expect(card.provenance.baselineImageId).toBe((await docker.getImage(labelled).inspect()).Id);
      expect(card.provenance.patchHash).toMatch(/^[0-9a-f]{64}$/);
    },
    ROUNDS_TIMEOUT_MS,
  );

  it(
    "reads the commit of a baseline it builds (baseline.build) from the label speedgate gives the image: its context's commit",
    async () => {
      if (!docker) return;
      const checkout = join(await makeTempDir("speedgate-build-context-"), "engine");
      await repo.git("worktree", "add", "--quiet", "--detach", checkout, c.image);
      // Untracked, as a workflow's generated files are: the checkout's tracked files are still its commit's.
      await writeFile(join(checkout, "Dockerfile"), `FROM ${image}\nCOPY profile.json ${ENGINE_SOURCE_DIR}/profile.json\n`);
      const { card } = await playRound(c.base, c.pr1, { baseline: { image: undefined, build: { context: checkout } } });
      const built = card.provenance.baselineImageId;
      if (built)
        cleanups.push(() =>
          docker
            .getImage(built)
            .remove({ force: true })
            .then(
              () => undefined,
              () => undefined,
            ),
        );
      expect(card.failure).toBeNull();
      expect(card.commits).toMatchObject({ imageRevision: c.image, imageRevisionFrom: "label org.opencontainers.image.revision" });
      // Brought to the base: the image's 3 s first token is gone.
      expect(card.metrics?.baseline.ttftMs.median).toBeLessThan(BELOW_IMAGE_TTFT_MS);

      // A changed tracked file: the label would vouch for code the image does not hold, so there is none, and the card says the image's
      // commit is unknown.
      await writeFile(join(checkout, "README.md"), "changed\n");
      const changed = await playRound(c.base, c.pr1, { baseline: { image: undefined, build: { context: checkout } } });
      expect(changed.card.failure).toMatchObject({ kind: "image_base_mismatch" });
      expect(changed.card.failure?.summary).toContain("no label org.opencontainers.image.revision");
    },
    ROUNDS_TIMEOUT_MS,
  );

  it(
    "reuses the baseline cached for a base: a second pull request on it builds no baseline overlay",
    async () => {
      if (!docker) return;
      const first = await playRound(c.base, c.pr1);
      expect(first.card.failure).toBeNull();
      const cachedId = first.card.commits?.baseline?.imageId;
      expect(cachedId).toMatch(/^sha256:/);
      const before = await docker.listImages({ all: true, filters: { label: [`${LABEL_BASELINE_BASE}=${c.base}`] } });

      const second = await playRound(c.base, c.pr2);
      expect(second.card.failure).toBeNull();
      expect(second.card.commits?.baseline).toMatchObject({ cache: "hit", imageId: cachedId, overlayMs: null, overlayFiles: null });
      expect(second.card.commits?.candidate).toMatchObject({ commit: c.pr2, overlayFiles: 1, overlayPaths: ["docs/notes.md"] });
      // The daemon's own record: no image for this base was made by the second round.
      const after = await docker.listImages({ all: true, filters: { label: [`${LABEL_BASELINE_BASE}=${c.base}`] } });
      expect(after.map((info) => info.Id).sort()).toEqual(before.map((info) => info.Id).sort());
      expect(second.card.metrics?.baseline.ttftMs.median).toBeLessThan(BELOW_IMAGE_TTFT_MS);
    },
    ROUNDS_TIMEOUT_MS,
  );

  it(
    "with source.cacheBaseline: false builds the baseline for the run alone and removes it with the run",
    async () => {
      if (!docker) return;
      const { card, runId } = await playRound(c.base, c.pr2, { source: { cacheBaseline: false } });
      expect(card.failure).toBeNull();
      expect(card.commits?.baseline).toMatchObject({ cache: null, overlayFiles: 1 });
      expect(card.metrics?.baseline.ttftMs.median).toBeLessThan(BELOW_IMAGE_TTFT_MS);
      const left = await docker.listImages({ all: true, filters: { reference: [`speedgate-baseline-run:${runId}`] } });
      expect(left).toEqual([]);
    },
    ROUNDS_TIMEOUT_MS,
  );

  it(
    "gives an image_base_mismatch card and exit code 3 from speedgate run, before any engine starts, for a base the image's commit " +
      "is not an ancestor of",
    async () => {
      if (!docker) return;
      const dir = await makeTempDir("speedgate-commits-cli-");
      const { configPath, runId } = await writeDockerRound(join(dir, "round"), {
        image: labelled,
        port: await getFreePort(),
        patch: null,
        engine,
        candidate: { sourceDir: ENGINE_SOURCE_DIR },
      });
      runIds.push(runId);
      const sinceS = Math.floor(Date.now() / 1000) - 1;
      const out = join(dir, "out");
      const { code } = await runCli([
        "run",
        "--config",
        configPath,
        "--out",
        out,
        "--run-id",
        runId,
        "--base",
        c.old,
        "--head",
        c.old,
        "--repo",
        repo.dir,
        "--fail-on-gate",
      ]);
      expect(code).toBe(EXIT_IMAGE_BASE_MISMATCH);
      const card = await readScorecard(join(out, "scorecard.json"));
      expect(card.failure).toMatchObject({ engine: "baseline", stage: "patch", kind: "image_base_mismatch" });
      expect(card.failure?.summary).toContain(labelled);
      expect(card.failure?.summary).toContain(c.image.slice(0, 12));
      expect(card.failure?.summary).toContain(c.old.slice(0, 12));
      expect(card.failure?.summary).toContain("is not an ancestor of the base");
      expect(describeVerdict(card).headline).toMatch(/^⚠️ No verdict: the engine image does not fit the base commit/);
      expect(card.runs.completed).toBe(0);
      expect(card.commits).toMatchObject({ base: c.old, imageRevision: c.image, baseline: null, candidate: null });
      expect(await containersCreated(runId, sinceS)).toEqual([]);
    },
    ROUNDS_TIMEOUT_MS,
  );

  it(
    "--check reads the image's commit from its label on this machine and lists what the baseline overlay changes, creating nothing",
    async () => {
      if (!docker) return;
      const dir = await makeTempDir("speedgate-commits-check-");
      const { configPath } = await writeDockerRound(join(dir, "round"), {
        image: labelled,
        port: await getFreePort(),
        patch: null,
        engine,
        candidate: { sourceDir: ENGINE_SOURCE_DIR },
      });
      const sinceS = Math.floor(Date.now() / 1000) - 1;
      const { code, stdout } = await runCli([
        "run",
        "--config",
        configPath,
        "--check",
        "--base",
        c.base,
        "--head",
        c.pr1,
        "--repo",
        repo.dir,
      ]);
      expect(code).toBe(0);
      expect(stdout).toContain(
        `engine image ${labelled} at ${c.image.slice(0, 12)} (label org.opencontainers.image.revision), its source in ${ENGINE_SOURCE_DIR}`,
      );
      expect(stdout).toContain("baseline overlay (image's commit to the base): 1 file (profile.json)");
      expect(stdout).toContain("candidate overlay (the pull request): 1 file (profile.json)");
      const old = await runCli(["run", "--config", configPath, "--check", "--base", c.old, "--head", c.old, "--repo", repo.dir]);
      expect(old.stdout).toContain("the image's commit is not an ancestor of the base: the round would end with image_base_mismatch");
      const events = await docker.getEvents({
        since: sinceS,
        until: Math.ceil(Date.now() / 1000) + 1,
        filters: { type: ["container"], event: ["create"] },
      });
      const created: string[] = [];
      for await (const chunk of events as AsyncIterable<Buffer>)
        created.push(
          ...String(chunk)
            .split("\n")
            .filter((line) => line.includes(labelled)),
        );
      expect(created).toEqual([]);
    },
    ROUNDS_TIMEOUT_MS,
  );

  it(
    "gives an image_base_mismatch card with the rejected hunks when the image's checkout is not at the commit it claims",
    async () => {
      if (!docker) return;
      const claiming = await labelTestImage(
        docker,
        image,
        { "org.opencontainers.image.revision": c.claimed },
        { [`${ENGINE_SOURCE_DIR}/profile.json`]: IMAGE_PROFILE },
      );
      cleanups.push(claiming.remove);
      const { card } = await playRound(c.claimedBase, c.claimedBase, { image: claiming.image });
      expect(card.failure).toMatchObject({ engine: "baseline", kind: "image_base_mismatch" });
      expect(card.failure?.summary).toContain("does not apply to the image's source");
      expect(card.failure?.logTail.join("\n")).toContain('"itlMs": 7');
      expect(card.runs.completed).toBe(0);
    },
    ROUNDS_TIMEOUT_MS,
  );

  it(
    "runs the build step in both engines when the pull request changes compiled code, and in neither when it does not",
    async () => {
      if (!docker) return;
      const source = {
        compiledPaths: ["kernel/**"],
        build: [KERNEL_BUILD],
        buildCache: "/speedgate-cache",
        buildCacheHit: "^kernel cache hit",
      };
      const pythonOnly = await playRound(c.base, c.pr1, { source });
      expect(pythonOnly.card.failure).toBeNull();
      expect(pythonOnly.card.commits?.baseline?.build).toMatchObject({ ran: false, ms: null });
      expect(pythonOnly.card.commits?.candidate?.build).toMatchObject({ ran: false, reason: "the pull request changes no compiled path" });

      const compiled = await playRound(c.kernelBase, c.kernelPr, { source, keepCandidateImage: true });
      expect(compiled.card.failure).toBeNull();
      const baseline = compiled.card.commits?.baseline;
      const candidate = compiled.card.commits?.candidate;
      expect(baseline?.build).toMatchObject({ ran: true, cache: "cold", hit: false });
      expect(candidate?.build).toMatchObject({ ran: true, cache: "warm", hit: false });
      expect(candidate?.build.reason).toContain("kernel/version");
      // Each engine's image holds its own commit's build.
      const read = async (imageId: string | null | undefined): Promise<string> =>
        (
          await readImageFile(docker, {
            imageId: imageId ?? "",
            path: `${ENGINE_SOURCE_DIR}/built-kernel`,
            labels: {},
            maxBytes: 1024,
            what: "test",
          })
        )
          .toString("utf8")
          .trim();
      expect(await read(baseline?.imageId)).toBe("1");
      expect(await read(candidate?.imageId)).toBe("2");
      await docker.getImage(candidate?.imageId ?? "").remove({ force: true });

      // The same base again: the baseline (built once) comes from the cache; the candidate's kernel 2 was never
      // written to the cache, since the pull request's build sees it read-only.
      const again = await playRound(c.kernelBase, c.kernelPr, { source });
      expect(again.card.failure).toBeNull();
      expect(again.card.commits?.baseline).toMatchObject({ cache: "hit" });
      expect(again.card.commits?.candidate?.build).toMatchObject({ ran: true, cache: "warm", hit: false });
    },
    ROUNDS_TIMEOUT_MS,
  );
});
