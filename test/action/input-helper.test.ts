import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/vocabulary/config-error.js";
import { readSettings } from "../../action/input-helper.js";

function reader(inputs: Record<string, string>) {
  return (name: string): string => inputs[name] ?? "";
}

const env = { RUNNER_TEMP: "/runner/_temp" };

describe("readSettings", () => {
  it("reads a run with defaults for what is not given", () => {
    expect(readSettings(reader({ config: "round.yaml" }), env)).toEqual({
      mode: "run",
      config: "round.yaml",
      patch: { kind: "config" },
      commits: { base: null, head: null, repositoryPath: null },
      shard: null,
      outDir: "/runner/_temp/speedgate",
      failOnGate: true,
      comment: false,
      githubToken: "",
    });
  });

  it("reads every run input", () => {
    const settings = readSettings(
      reader({
        config: "round.yaml",
        "patch-from-pr": "true",
        "patch-paths": "python/**\n# not this\n!**/tests/**, csrc/*.cu\n",
        shard: "2/4",
        "out-dir": "out",
        "fail-on-gate": "False",
        comment: "TRUE",
        "github-token": "t0ken",
      }),
      env,
    );
    expect(settings).toEqual({
      mode: "run",
      config: "round.yaml",
      patch: { kind: "pull-request", paths: ["python/**", "!**/tests/**", "csrc/*.cu"] },
      commits: { base: null, head: null, repositoryPath: null },
      shard: { index: 2, count: 4 },
      outDir: "out",
      failOnGate: false,
      comment: true,
      githubToken: "t0ken",
    });
  });

  it("reads the commits of base/head mode", () => {
    const settings = readSettings(
      reader({ config: "round.yaml", "base-sha": " origin/main ", "head-sha": "a".repeat(40), "repository-path": "engine" }),
      env,
    );
    expect(settings).toMatchObject({
      patch: { kind: "config" },
      commits: { base: "origin/main", head: "a".repeat(40), repositoryPath: "engine" },
    });
  });

  it("reads a merge", () => {
    expect(readSettings(reader({ mode: "merge", cards: "shards\ncards/*/scorecard.json" }), env)).toMatchObject({
      mode: "merge",
      cards: ["shards", "cards/*/scorecard.json"],
    });
  });

  it("reads mode: watch with defaults, and every watch input", () => {
    expect(readSettings(reader({ mode: "watch", config: "round.yaml" }), env)).toEqual({
      mode: "watch",
      config: "round.yaml",
      good: null,
      head: null,
      repositoryPath: null,
      stateFile: ".speedgate/watch-state.json",
      bisect: false,
      failOnDrift: false,
      outDir: "/runner/_temp/speedgate",
      failOnGate: true,
      comment: false,
      githubToken: "",
    });
    expect(
      readSettings(
        reader({
          mode: "watch",
          config: "round.yaml",
          "base-sha": "v0.5.0",
          "head-sha": "a".repeat(40),
          "repository-path": "engine",
          "state-file": "state/watch.json",
          bisect: "true",
          "fail-on-drift": "yes",
        }),
        env,
      ),
    ).toMatchObject({
      mode: "watch",
      good: "v0.5.0",
      head: "a".repeat(40),
      repositoryPath: "engine",
      stateFile: "state/watch.json",
      bisect: true,
      failOnDrift: true,
    });
  });

  it.each([
    [{ mode: "bench", config: "r.yaml" }, 'input "mode": expected "run", "merge" or "watch", got "bench"'],
    [{ config: "r.yaml", shard: "5/4" }, 'input "shard": expected "i/n" with whole numbers 1 <= i <= n <= 1000, such as "2/4", got "5/4"'],
    [{}, 'input "config": expected the path of a round config file (mode: run), got nothing'],
    [{ config: "r.yaml", "fail-on-gate": "yes please" }, 'input "fail-on-gate": expected true or false, got "yes please"'],
    [
      { config: "r.yaml", patch: "a.patch", "patch-from-pr": "true" },
      'input "patch": expected either a patch file or patch-from-pr: true, not both',
    ],
    [{ config: "r.yaml", "patch-paths": "python/**" }, 'input "patch-paths": expected only with patch-from-pr: true'],
    [{ mode: "merge" }, 'input "cards": expected a folder, file or glob of shard scorecard.json files (mode: merge), got nothing'],
    [{ mode: "merge", cards: "x", shard: "1/2" }, 'input "shard": expected only with mode: run, but mode is merge'],
    [{ config: "r.yaml", cards: "x" }, 'input "cards": expected only with mode: merge, but mode is run'],
    [
      { config: "r.yaml", "base-sha": "main", "patch-from-pr": "true" },
      'input "base-sha": expected either base-sha/head-sha (score the pull request\'s head against its base) or patch-from-pr (a ' +
        "fixed baseline and a patch), not both",
    ],
    [{ config: "r.yaml", "head-sha": "abc", patch: "a.patch" }, 'input "head-sha": expected either base-sha/head-sha'],
    [
      { config: "r.yaml", "head-sha": "--upload-pack=evil" },
      'input "head-sha": expected a commit SHA or another git revision, got "--upload-pack=evil"',
    ],
    [{ mode: "merge", cards: "x", "base-sha": "main" }, 'input "base-sha": expected only with mode: run, but mode is merge'],
    [{ config: "r.yaml", bisect: "true" }, 'input "bisect": expected only with mode: watch, but mode is run'],
    [{ mode: "merge", cards: "x", "state-file": "s.json" }, 'input "state-file": expected only with mode: watch, but mode is merge'],
    [{ mode: "watch" }, 'input "config": expected the path of a round config file (mode: watch), got nothing'],
    [{ mode: "watch", config: "r.yaml", shard: "1/2" }, 'input "shard": expected only with mode: run, but mode is watch'],
    [
      { mode: "watch", config: "r.yaml", "patch-from-pr": "true" },
      'input "patch-from-pr": expected only with mode: run, but mode is watch',
    ],
    [{ mode: "watch", config: "r.yaml", cards: "x" }, 'input "cards": expected only with mode: run, but mode is watch'],
    [{ mode: "watch", config: "r.yaml", comment: "true" }, 'input "comment": expected false with mode: watch'],
    [{ mode: "watch", config: "r.yaml", "state-file": "../elsewhere.json" }, 'input "state-file": expected a path inside the repository'],
    [{ mode: "watch", config: "r.yaml", "state-file": "/tmp/state.json" }, 'input "state-file": expected a path inside the repository'],
    [{ mode: "watch", config: "r.yaml", bisect: "sometimes" }, 'input "bisect": expected true or false, got "sometimes"'],
    [{ mode: "watch", config: "r.yaml", "base-sha": "-c x" }, 'input "base-sha": expected a commit SHA or another git revision'],
  ])("refuses %j naming the input", (inputs, message) => {
    expect(() => readSettings(reader(inputs), env)).toThrow(ConfigError);
    expect(() => readSettings(reader(inputs), env)).toThrow(message);
  });
});
