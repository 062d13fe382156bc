import { spawn } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { readScorecard } from "../../src/scorecard/read-scorecard.js";
import { makeTempDir } from "../support/make-temp-dir.js";

const bundle = fileURLToPath(new URL("../../dist/cli.js", import.meta.url));

describe("the committed bundle", () => {
  it("runs the demo from another folder with nothing but Node (the README's first command)", async () => {
    const out = await makeTempDir("speedgate-demo-bundle-");
    let stderr = "";
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, [bundle, "demo", "--out", out], { cwd: tmpdir(), stdio: ["ignore", "ignore", "pipe"] });
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
      child.once("close", resolve);
    });
    expect(code, stderr).toBe(0);
    const card = await readScorecard(join(out, "scorecard.json"));
    expect(card.roundScore).not.toBeNull();
    expect(card.belowTolerance).toBe(2);
  });
});
