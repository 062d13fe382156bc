import { execFile } from "node:child_process";
import { chmod, mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { BUILD_MARKER, buildScript } from "../../src/docker/run-build-container.js";
import { makeTempDir } from "../support/make-temp-dir.js";

/*
 * The build container's script, run by this machine's /bin/sh as the container's would run it: the
 * cache variables a build sees, and the ccache set-up that the shipped SGLang round relies on. A
 * stand-in `ccache` on PATH records what it was given and keeps a stats log the way ccache 4.7 does
 * (ccache itself is not needed: what matters is the environment and the calls the script makes).
 */

const run = promisify(execFile);

/** A `ccache` that logs its environment, appends a hit or a miss to CCACHE_STATSLOG, and prints that log's counters. */
const FAKE_CCACHE = `#!/bin/sh
if [ "$1" = "--show-log-stats" ]; then
  hits=$(grep -c hit "$CCACHE_STATSLOG"); misses=$(grep -c miss "$CCACHE_STATSLOG"); calls=$((hits + misses))
  echo "Cacheable calls:  $calls / $calls (100.0%)"
  echo "  Hits:           $hits / $calls"
  echo "  Misses:         $misses / $calls"
  exit 0
fi
echo "ccache: dir=$CCACHE_DIR readonly=\${CCACHE_READONLY-unset} tempdir=\${CCACHE_TEMPDIR-unset}"
if [ -e "$CCACHE_DIR/object" ]; then
  echo hit >> "$CCACHE_STATSLOG"
else
  echo miss >> "$CCACHE_STATSLOG"
  [ -n "$CCACHE_READONLY" ] || : > "$CCACHE_DIR/object"
fi
`;

async function playBuild(commands: string[][], readOnly: boolean, cache: string): Promise<string[]> {
  const dir = await makeTempDir("speedgate-build-script-");
  const bin = join(dir, "bin");
  const source = join(dir, "source");
  await mkdir(bin);
  await mkdir(source);
  await writeFile(join(bin, "ccache"), FAKE_CCACHE);
  await chmod(join(bin, "ccache"), 0o755);
  const { stdout } = await run("/bin/sh", ["-c", buildScript(commands), "speedgate-build", source, cache, readOnly ? "1" : "0"], {
    // CCACHE_READONLY=0 in the runner's own environment must not reach the build either.
    env: { PATH: `${bin}:/usr/bin:/bin`, TMPDIR: dir, CCACHE_READONLY: "0" },
  });
  return stdout.trim().split("\n");
}

describe("the build container's script", () => {
  it(
    "points ccache at the cache volume, writable for the baseline's " + "build, without the CCACHE_READONLY=0 that ccache refuses",
    async () => {
      const cache = await makeTempDir("speedgate-build-cache-");
      const lines = await playBuild([["ccache", "cc"]], false, cache);
      expect(lines[0]).toBe(`${BUILD_MARKER} cache cold`);
      expect(lines).toContain(`ccache: dir=${cache} readonly=unset tempdir=unset`);
      // The next build finds the volume warm.
      await expect(stat(join(cache, ".speedgate-build-cache"))).resolves.toBeTruthy();
    },
  );

  it("makes the candidate's build read-only with a temporary folder outside the volume, and leaves no stamp", async () => {
    const cache = await makeTempDir("speedgate-build-cache-");
    const lines = await playBuild([["ccache", "cc"]], true, cache);
    expect(lines.find((line) => line.startsWith("ccache: "))).toMatch(/^ccache: dir=.* readonly=1 tempdir=.*\/speedgate-ccache$/);
    await expect(stat(join(cache, ".speedgate-build-cache"))).rejects.toThrow();
  });

  it(
    "prints this build's own ccache counters, so the shipped hit pattern " + "tells a build that compiled nothing from one that did",
    async () => {
      const cache = await makeTempDir("speedgate-build-cache-");
      const round = await readFile(new URL("../../examples/rounds/sglang.yaml", import.meta.url), "utf8");
      const hitPattern = new RegExp(/buildCacheHit: "(.*)"/.exec(round)?.[1] ?? "no pattern in sglang.yaml");
      const cold = await playBuild([["ccache", "cc"]], false, cache);
      expect(cold.filter((line) => hitPattern.test(line))).toEqual([]);
      expect(cold).toContain("  Misses:         1 / 1");
      // The volume now holds the object: the next build, read-only as a candidate's, hits; the counters are its own.
      const warm = await playBuild([["ccache", "cc"]], true, cache);
      expect(warm[0]).toBe(`${BUILD_MARKER} cache warm`);
      expect(warm.filter((line) => hitPattern.test(line))).toEqual(["  Misses:         0 / 1"]);
    },
  );

  it("prints no counters when nothing went through ccache (ccache 4.7 crashes on a missing stats log)", async () => {
    const lines = await playBuild([["true"]], false, await makeTempDir("speedgate-build-cache-"));
    expect(lines.some((line) => line.includes("Misses"))).toBe(false);
  });

  it("stops at the first command that fails, with its exit code", async () => {
    const failure = playBuild(
      [
        ["sh", "-c", "exit 7"],
        ["ccache", "cc"],
      ],
      false,
      await makeTempDir("speedgate-build-cache-"),
    );
    await expect(failure).rejects.toMatchObject({ code: 7 });
  });
});
