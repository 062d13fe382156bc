import { chmod, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach } from "vitest";
import { makeTempDir } from "../make-temp-dir.js";

/**
 * For a test file that checks what reaches git's command line: returns a function that puts a `git`
 * first on PATH which appends its argv, NUL-separated, one call a line, to `log`, then runs the real
 * git (and each git it starts again, such as git-remote-http, runs through it too). PATH is restored
 * after each test.
 */
export function useGitArgvRecorder(): () => Promise<{ log: string }> {
  let savedPath: string | undefined;
  beforeEach(() => {
    savedPath = process.env.PATH;
  });
  afterEach(() => {
    process.env.PATH = savedPath;
  });
  return async () => {
    const dir = await makeTempDir("speedgate-git-wrapper-");
    const log = join(dir, "argv.log");
    const realGit = (savedPath ?? "").split(":").map((folder) => join(folder, "git"));
    const wrapper = join(dir, "git");
    await writeFile(
      wrapper,
      `#!/bin/sh\nfor arg in "$@"; do printf '%s\\0' "$arg" >> ${JSON.stringify(log)}; done\nprintf '\\n' >> ` +
        `${JSON.stringify(log)}\nfor git in ${realGit.map((path) => JSON.stringify(path)).join(" ")}; do if [ -x "$git" ]; then exec ` +
        `"$git" "$@"; fi; done\nexit 127\n`,
    );
    await chmod(wrapper, 0o755);
    await writeFile(log, "");
    process.env.PATH = `${dir}:${savedPath ?? ""}`;
    return { log };
  };
}
