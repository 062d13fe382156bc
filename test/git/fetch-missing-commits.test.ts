import { readFile } from "node:fs/promises";
import { type IncomingHttpHeaders, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { fetchMissingCommits } from "../../src/git/fetch-missing-commits.js";
import { GitError } from "../../src/git/run-git.js";
import { createRecordingLogger } from "../../src/logger.js";
import { makeGitRepository } from "../support/git/make-git-repository.js";
import { useGitArgvRecorder } from "../support/git/record-git-argv.js";

/*
 * The job token fetchMissingCommits sends as an authorization header must never be on git's command
 * line: any local process can read a command line from /proc/<pid>/cmdline while the fetch runs. A
 * `git` wrapper first on PATH records every argv it is started with (and each git it starts again,
 * such as git-remote-http, runs through it too when it is named git), and a local HTTP server stands
 * in for GitHub to show the header still arrives.
 */

const TOKEN = "ghs_secretTokenThatMustNotLeak0123456789";
const HEADER = `basic ${Buffer.from(`x-access-token:${TOKEN}`).toString("base64")}`;

describe("fetchMissingCommits", () => {
  const recordGitArgv = useGitArgvRecorder();
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
      await repo.commit("first", { "a.txt": "a\n" });
      await repo.git("remote", "add", "origin", `${serverUrl}/owner/repo.git`);
      const { log } = await recordGitArgv();

      const missing = "c".repeat(40);
      const fetching = fetchMissingCommits(repo.dir, [missing], { token: TOKEN, serverUrl, logger: createRecordingLogger() });
      // The stand-in serves no repository: the fetch fails, after asking the server with the header.
      await expect(fetching).rejects.toBeInstanceOf(GitError);

      expect(headers.map((sent) => sent.authorization)).toContain(`${HEADER}`);
      const calls = (await readFile(log, "utf8")).split("\n").filter((line) => line !== "");
      expect(calls.some((call) => call.split("\0").includes("fetch"))).toBe(true);
      for (const call of calls) {
        expect(call).not.toContain(TOKEN);
        expect(call).not.toContain(HEADER);
        expect(call.toLowerCase()).not.toContain("extraheader");
      }
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
