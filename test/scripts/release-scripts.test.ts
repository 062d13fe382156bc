import { execFile } from "node:child_process";
import { mkdir, readFile, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { SPEEDGATE_VERSION } from "../../src/version.js";
import { makeTempDir } from "../support/make-temp-dir.js";

const run = promisify(execFile);
const scripts = fileURLToPath(new URL("../../scripts/", import.meta.url));
const identity = {
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@example.invalid",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@example.invalid",
};

async function git(cwd: string, ...args: string[]): Promise<string> {
  return (await run("git", args, { cwd, env: { ...process.env, ...identity } })).stdout.trim();
}

/** A clone of a bare "GitHub" remote, with package.json and src/version.ts saying `version`. */
async function makeRepository(version: string): Promise<{ clone: string; remote: string }> {
  const dir = await makeTempDir("speedgate-release-");
  const remote = join(dir, "remote.git");
  const clone = join(dir, "clone");
  await git(dir, "init", "--quiet", "--bare", remote);
  await git(dir, "init", "--quiet", "--initial-branch=main", clone);
  await git(clone, "remote", "add", "origin", remote);
  await commitVersion(clone, version);
  return { clone, remote };
}

async function commitVersion(clone: string, version: string): Promise<string> {
  await mkdir(join(clone, "src"), { recursive: true });
  await writeFile(join(clone, "package.json"), `${JSON.stringify({ name: "speedgate", version }, null, 2)}\n`);
  await writeFile(join(clone, "src", "version.ts"), `export const SPEEDGATE_VERSION = "${version}";\n`);
  await git(clone, "add", ".");
  await git(clone, "commit", "--quiet", "--allow-empty", "-m", `version ${version}`);
  await git(clone, "push", "--quiet", "origin", "main");
  return await git(clone, "rev-parse", "HEAD");
}

async function script(name: string, cwd: string, env: Record<string, string>) {
  const output = join(cwd, "..", "github-output");
  try {
    const { stdout } = await run("bash", [join(scripts, name)], {
      cwd,
      env: { ...process.env, ...identity, ...env, GITHUB_OUTPUT: output },
    });
    return { code: 0, stdout, stderr: "", output: await readFile(output, "utf8").catch(() => "") };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr, output: "" };
  }
}

async function remoteTags(remote: string): Promise<Record<string, string>> {
  const lines = (await git(remote, "for-each-ref", "--format=%(refname:short) %(objectname) %(*objectname)", "refs/tags"))
    .split("\n")
    .filter(Boolean);
  // An annotated tag's commit is its peeled object; a lightweight tag's is the object itself.
  return Object.fromEntries(
    lines.map((line) => {
      const [name, object, peeled] = line.split(" ");
      return [name ?? "", peeled || object || ""];
    }),
  );
}

describe("scripts/check-release-version.sh", () => {
  it("accepts the version package.json and src/version.ts say and hands the commit on", async () => {
    const { clone } = await makeRepository("1.2.3");
    const result = await script("check-release-version.sh", clone, { VERSION: "1.2.3" });
    expect(result.code, result.stderr).toBe(0);
    expect(result.output).toBe(`sha=${await git(clone, "rev-parse", "HEAD")}\n`);
  });

  it.each([
    ["v1.2.3", 'expected a version such as 1.2.3, got "v1.2.3"'],
    ["1.2", 'expected a version such as 1.2.3, got "1.2"'],
    ["1.2.3; rm -rf /", "expected a version such as 1.2.3"],
    ["1.2.4", "package.json says 1.2.3 and src/version.ts says 1.2.3, expected both to say 1.2.4"],
  ])("refuses %j", async (version, message) => {
    const { clone } = await makeRepository("1.2.3");
    const result = await script("check-release-version.sh", clone, { VERSION: version });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(message);
    expect(result.output).toBe("");
  });

  it("refuses a version that is already tagged: a release is never moved", async () => {
    const { clone } = await makeRepository("1.2.3");
    await git(clone, "tag", "v1.2.3");
    const result = await script("check-release-version.sh", clone, { VERSION: "1.2.3" });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("v1.2.3 is already tagged");
  });

  it("finds this repository's own version in both places it is written", async () => {
    const manifest = JSON.parse(await readFile(join(scripts, "..", "package.json"), "utf8")) as { version: string };
    expect(manifest.version).toBe(SPEEDGATE_VERSION);
  });
});

describe("scripts/tag-release.sh", () => {
  it("tags the commit, moves the major tag with each newer release, and leaves it on the newest for a backport", async () => {
    const { clone, remote } = await makeRepository("1.2.3");
    const first = await git(clone, "rev-parse", "HEAD");
    expect((await script("tag-release.sh", clone, { VERSION: "1.2.3", SHA: first })).code).toBe(0);
    expect(await remoteTags(remote)).toEqual({ v1: first, "v1.2.3": first });

    const second = await commitVersion(clone, "1.3.0");
    const moved = await script("tag-release.sh", clone, { VERSION: "1.3.0", SHA: second });
    expect(moved.stdout).toContain(`moved v1 to ${second.slice(0, 12)}`);
    expect(await remoteTags(remote)).toEqual({ v1: second, "v1.2.3": first, "v1.3.0": second });

    const backport = await commitVersion(clone, "1.2.4");
    const kept = await script("tag-release.sh", clone, { VERSION: "1.2.4", SHA: backport });
    expect(kept.stdout).toContain("v1 stays on v1.3.0");
    expect(await remoteTags(remote)).toEqual({ v1: second, "v1.2.3": first, "v1.2.4": backport, "v1.3.0": second });
  });

  it("refuses to replace a release tag that exists on the remote", async () => {
    const { clone, remote } = await makeRepository("2.0.0");
    const first = await git(clone, "rev-parse", "HEAD");
    await script("tag-release.sh", clone, { VERSION: "2.0.0", SHA: first });
    const other = await commitVersion(clone, "2.0.0");
    await git(clone, "tag", "--delete", "v2.0.0");
    const again = await script("tag-release.sh", clone, { VERSION: "2.0.0", SHA: other });
    expect(again.code).not.toBe(0);
    expect(await remoteTags(remote)).toEqual({ v2: first, "v2.0.0": first });
  });
});

/** Every text a user copies a `uses:` line or an `npx github:` ref from. */
async function pinningTexts(): Promise<Array<{ file: string; text: string }>> {
  const root = join(scripts, "..");
  const files = ["README.md", "action.yml"];
  for (const dir of ["docs", "examples", ".github"]) {
    for (const entry of await readdir(join(root, dir), { recursive: true })) {
      if (/\.(md|ya?ml)$/.test(entry)) files.push(join(dir, entry));
    }
  }
  return await Promise.all(files.map(async (file) => ({ file, text: await readFile(join(root, file), "utf8") })));
}

describe("the version the docs and examples pin", () => {
  it("is a tag the release script makes for this version (v0 and v0.1.0 for 0.1.0, not v1)", async () => {
    const { clone, remote } = await makeRepository(SPEEDGATE_VERSION);
    await script("tag-release.sh", clone, { VERSION: SPEEDGATE_VERSION, SHA: await git(clone, "rev-parse", "HEAD") });
    const tags = new Set(Object.keys(await remoteTags(remote)));
    const pinned: string[] = [];
    const strangers: string[] = [];
    for (const { file, text } of await pinningTexts()) {
      for (const match of text.matchAll(/speedgate[@#](v\d[\w.-]*)/g)) {
        const ref = (match[1] ?? "").replace(/\.$/, "");
        pinned.push(ref);
        if (!tags.has(ref)) strangers.push(`${file}: ${match[0]}`);
      }
    }
    expect(pinned.length).toBeGreaterThan(5);
    expect(strangers).toEqual([]);
  });
});
