import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { decideBuilds, planCommitChange } from "../../src/commits/plan-commit-change.js";
import { ConfigError } from "../../src/vocabulary/config-error.js";
import { loadRound, parseRoundConfig } from "../../src/config/load-round-config.js";
import { type GitRepository, makeGitRepository } from "../support/git/make-git-repository.js";
import { makeTempDir } from "../support/make-temp-dir.js";

const BASE_CONFIG = {
  engine: "sim",
  port: 30000,
  bench: { prompts: "prompts.jsonl", maxTokens: 16, requestIntervalMs: 10, contextLimit: 1024, tolerance: 0.9 },
  gate: { minRoundScore: 1 },
};

describe("loading a round that scores commits", () => {
  let repo: GitRepository;
  let dir: string;
  const c = { base: "", head: "" };

  beforeAll(async () => {
    repo = await makeGitRepository();
    c.base = await repo.commit("base", { "engine/profile.json": "{}\n", "sgl-kernel/gemm.cu": "// v1\n" });
    c.head = await repo.commit("head", { "engine/profile.json": "{ }\n", "sgl-kernel/gemm.cu": "// v2\n", "docs/a.md": "a\n" });
    dir = await makeTempDir("speedgate-commits-config-");
    await writeFile(join(dir, "prompts.jsonl"), '{"id": "p1", "prompt": "hello"}\n');
  });

  async function write(config: Record<string, unknown>): Promise<string> {
    const path = join(dir, `round-${Math.random().toString(36).slice(2)}.yml`);
    await writeFile(path, JSON.stringify({ ...BASE_CONFIG, ...config }));
    return path;
  }

  it("resolves the commits and keeps a process engine's folders relative to the repository", async () => {
    const path = await write({ runtime: "process", baseline: { command: ["serve"], cwd: "engine" } });
    const round = await loadRound(path, { commits: { base: "HEAD~1", head: "HEAD", repoDir: repo.dir } });
    expect(round.commits).toEqual({ repoDir: repo.dir, base: c.base, head: c.head, mergeBase: c.base, baseRef: "HEAD~1", headRef: "HEAD" });
    expect(round.config.baseline.cwd).toBe("engine");
  });

  it.each([
    [
      { runtime: "process", baseline: { command: ["serve"], cwd: "/srv/engine" } },
      "baseline.cwd: expected a folder relative to the repository's root",
    ],
    [{ runtime: "process", baseline: { command: ["serve"], cwd: "python" } }, "baseline.cwd: expected a folder of the repository at"],
    [
      { runtime: "docker", baseline: { image: "engine:dev" } },
      "candidate.sourceDir: expected the folder of the engine's source checkout inside the image",
    ],
    [
      { runtime: "docker", baseline: { image: "engine:dev" }, candidate: { sourceDir: "/src", patch: "x.patch" } },
      "candidate.patch: expected no patch when scoring commits",
    ],
  ])("refuses %j before anything starts", async (config, message) => {
    const path = await write(config);
    const error = await loadRound(path, { commits: { base: c.base, head: c.head, repoDir: repo.dir } }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain(message);
  });

  it("validates the source section", () => {
    const parse = (source: unknown) => () => parseRoundConfig({ ...BASE_CONFIG, runtime: "docker", baseline: { image: "i" }, source });
    expect(
      parse({
        revision: { file: "/x/.git/HEAD" },
        paths: ["python/**"],
        compiledPaths: ["csrc/**"],
        build: [["make"]],
        buildCache: "/cache",
      }),
    ).not.toThrow();
    expect(parse({ revision: { commit: "main" } })).toThrow(/source\.revision/);
    expect(parse({ buildCache: "cache" })).toThrow(/source\.buildCache: expected the absolute path inside the image/);
    expect(parse({ buildCacheHit: "(" })).toThrow(/source\.buildCacheHit: expected a regular expression/);
    expect(parseRoundConfig({ ...BASE_CONFIG, runtime: "docker", baseline: { image: "i" } }).source).toEqual({
      revision: { label: "org.opencontainers.image.revision" },
      paths: [],
      compiledPaths: [],
      build: [],
      cacheBaseline: true,
    });
  });
});

describe("the build rule", () => {
  let repo: GitRepository;
  const c = { image: "", base: "", python: "", kernel: "" };
  beforeAll(async () => {
    repo = await makeGitRepository();
    c.image = await repo.commit("image", { "python/a.py": "1\n", "sgl-kernel/gemm.cu": "// v1\n" });
    c.base = await repo.commit("base", { "python/a.py": "2\n" });
    c.python = await repo.commit("python only", { "python/a.py": "3\n" });
    await repo.git("checkout", "--quiet", "-b", "k", c.base);
    c.kernel = await repo.commit("a kernel", { "sgl-kernel/gemm.cu": "// v2\n", "docs/x.md": "x\n" });
  });

  const source = { paths: ["python/**", "sgl-kernel/**"], compiledPaths: ["sgl-kernel/**"] };

  it("builds neither engine for a Python-only pull request on a base whose compiled code did not change", async () => {
    const builds = decideBuilds(
      await planCommitChange(repo.dir, c.image, c.base, source),
      await planCommitChange(repo.dir, c.base, c.python, source),
    );
    expect(builds.baseline.run).toBe(false);
    expect(builds.candidate.run).toBe(false);
  });

  it("builds both engines when the pull request changes compiled code, and sorts the files it leaves out", async () => {
    const head = await planCommitChange(repo.dir, c.base, c.kernel, source);
    expect(head.files.map((file) => file.path)).toEqual(["sgl-kernel/gemm.cu"]);
    expect(head.leftOut).toEqual(["docs/x.md"]);
    expect(head.compiled).toEqual(["sgl-kernel/gemm.cu"]);
    const builds = decideBuilds(await planCommitChange(repo.dir, c.image, c.base, source), head);
    expect(builds.candidate).toEqual({ run: true, reason: "the pull request changes compiled code (sgl-kernel/gemm.cu)" });
    expect(builds.baseline).toEqual({ run: true, reason: "the candidate builds, so the baseline is built by the same commands" });
  });

  it("builds the baseline alone when compiled code changed between the image's commit and the base", async () => {
    const builds = decideBuilds(
      await planCommitChange(repo.dir, c.image, c.kernel, source),
      await planCommitChange(repo.dir, c.kernel, c.kernel, source),
    );
    expect(builds.baseline.run).toBe(true);
    expect(builds.baseline.reason).toContain("between the image's commit and the base (sgl-kernel/gemm.cu)");
    expect(builds.candidate.run).toBe(false);
  });
});
