import { readFile, readdir } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { listConfigFields } from "../../bench/bad-input/list-config-fields.js";
import * as hints from "../../src/failure/failure-hints.js";
import * as llamaCppHints from "../../src/failure/llama-cpp-hints.js";

/*
 * A hint that tells the reader to set a config field that does not exist sends them nowhere: the
 * startup_timeout hint once suggested "a mounted cache" when no field could mount anything.
 */

const troubleshooting = fileURLToPath(new URL("../../docs/troubleshooting/", import.meta.url));
const FIELD = /\b(?:docker|health|bench|build|gate|baseline|candidate)\.[a-zA-Z]+(?:\.[a-zA-Z]+)?/g;

async function hintTexts(): Promise<string[]> {
  const texts: string[] = [];
  for (const value of [...Object.values(hints), ...Object.values(llamaCppHints)]) {
    if (typeof value === "string") texts.push(value);
    else if (typeof value === "function") texts.push(String((value as (arg: null) => unknown)(null)));
    else texts.push(...Object.values(value as Record<string, string>));
  }
  for (const page of await readdir(troubleshooting)) texts.push(await readFile(join(troubleshooting, page), "utf8"));
  return texts;
}

describe("the failure hints and troubleshooting pages", () => {
  it("name only round config fields that exist", async () => {
    const fields = new Set(listConfigFields());
    const named = new Set((await hintTexts()).flatMap((text) => text.match(FIELD) ?? []));
    // docker.sock is the daemon's socket, not a field.
    const unknown = [...named].filter((field) => field !== "docker.sock" && !fields.has(field) && ![...fields].some((known) => known.startsWith(`${field}.`)));
    expect(unknown).toEqual([]);
  });

  it("point a slow start at weights served from the runner with docker.mounts, which the config now has", () => {
    expect(hints.startupTimeoutHint(1200)).toContain("(`docker.mounts`, read-only)");
    expect(listConfigFields()).toContain("docker.mounts");
  });
});
