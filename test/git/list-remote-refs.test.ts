import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { type IncomingHttpHeaders, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { listRemoteRefs } from "../../src/git/list-remote-refs.js";
import { GitError } from "../../src/git/run-git.js";
import { makeGitRepository } from "../support/git/make-git-repository.js";
import { useGitArgvRecorder } from "../support/git/record-git-argv.js";
import { makeTempDir } from "../support/make-temp-dir.js";

const run = promisify(execFile);
const TOKEN = "ghs_secretTokenThatMustNotLeak0123456789";

describe("listRemoteRefs", () => {
  const recordGitArgv = useGitArgvRecorder();

  it("lists the remote's own refs, not the clone's: a ref a fetch refspec wrote is not there", async () => {
    const server = await makeGitRepository();
    const main = await server.commit("main", { "a.txt": "a\n" });
    await server.git("checkout", "--quiet", "-b", "feature");
    const feature = await server.commit("feature", { "a.txt": "b\n" });
    await server.git("update-ref", "refs/pull/5/head", feature);
    const clone = join(await makeTempDir("speedgate-ls-remote-"), "repo");
    await run("git", ["clone", "--quiet", `file://${server.dir}`, clone]);
    await run("git", ["-C", clone, "fetch", "--quiet", "origin", "+refs/pull/*/head:refs/remotes/origin/pr/*"]);
    expect(await listRemoteRefs(clone, ["refs/heads/*"])).toEqual(
      new Map([
        ["refs/heads/feature", feature],
        ["refs/heads/main", main],
      ]),
    );
    expect(await listRemoteRefs(clone, ["refs/pull/5/head", "refs/pull/6/head"])).toEqual(new Map([["refs/pull/5/head", feature]]));
  });

  it("sends the token to the server through git's environment, never on any git command line", async () => {
    const headers: IncomingHttpHeaders[] = [];
    const server = createServer((request, response) => {
      headers.push(request.headers);
      response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const serverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const repo = await makeGitRepository();
      await repo.git("remote", "add", "origin", `${serverUrl}/owner/repo.git`);
      const { log } = await recordGitArgv();
      // The stand-in serves no repository: the listing fails, after asking the server with the header.
      await expect(listRemoteRefs(repo.dir, ["refs/heads/*"], { token: TOKEN, serverUrl })).rejects.toBeInstanceOf(GitError);
      expect(headers.map((sent) => sent.authorization)).toContain(`basic ${Buffer.from(`x-access-token:${TOKEN}`).toString("base64")}`);
      const calls = (await readFile(log, "utf8")).split("\n").filter((line) => line !== "");
      expect(calls.some((call) => call.split("\0").includes("ls-remote"))).toBe(true);
      for (const call of calls) {
        expect(call).not.toContain(TOKEN);
        expect(call.toLowerCase()).not.toContain("extraheader");
      }
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
