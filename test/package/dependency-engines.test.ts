import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { getOctokit } from "@actions/github";
import semver from "semver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

interface LockEntry {
  version?: string;
  dev?: boolean;
  engines?: { node?: string } | string[];
}

const root = fileURLToPath(new URL("../../", import.meta.url));
const manifest = JSON.parse(readFileSync(`${root}package.json`, "utf8")) as {
  engines: { node: string };
  devEngines: { runtime: { name: string; version: string } };
};
const lock = JSON.parse(readFileSync(`${root}package-lock.json`, "utf8")) as { packages: Record<string, LockEntry> };

/** Installed packages whose own `engines.node` refuses the given Node version (what `npm ci` warns about). */
function packagesRefusing(nodeVersion: string, include: (entry: LockEntry) => boolean): string[] {
  const refusing: string[] = [];
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path === "" || !include(entry) || Array.isArray(entry.engines)) continue;
    const range = entry.engines?.node;
    if (range && !semver.satisfies(nodeVersion, range)) refusing.push(`${path}@${entry.version ?? "?"} needs node ${range}`);
  }
  return refusing;
}

describe("the Node versions the README promises", () => {
  it("every runtime dependency runs on the oldest Node that package.json's engines accepts", () => {
    const oldest = semver.minVersion(manifest.engines.node)?.version;
    expect(oldest).toBeDefined();
    // content-type 3 says node >= 22: the override pins 2.1.0, which has the same parse() for @octokit/request.
    expect(packagesRefusing(oldest ?? "", (entry) => entry.dev !== true)).toEqual([]);
  });

  it("every dependency, the test tooling included, installs without an engine warning on the oldest Node devEngines accepts", () => {
    expect(manifest.devEngines.runtime.name).toBe("node");
    const oldest = semver.minVersion(manifest.devEngines.runtime.version)?.version;
    expect(oldest).toBeDefined();
    expect(packagesRefusing(oldest ?? "", () => true)).toEqual([]);
    // The CLI needs no more than the development tooling does.
    expect(semver.lte(semver.minVersion(manifest.engines.node)?.version ?? "99.0.0", oldest ?? "0.0.0")).toBe(true);
  });
});

describe("@octokit/request with the overridden content-type", () => {
  const bodies: Record<string, { type: string; body: Buffer }> = {
    "/json": { type: "application/json; charset=utf-8", body: Buffer.from('{"id":42}') },
    "/text": { type: "text/plain; charset=utf-8", body: Buffer.from("plain words") },
    "/zip": { type: "application/zip", body: Buffer.from([0x50, 0x4b, 0x03, 0x04, 0xff]) },
    "/octet": { type: "application/octet-stream; charset=utf-8", body: Buffer.from([0x00, 0x01]) },
  };
  const server = createServer((request, response) => {
    const found = bodies[request.url ?? ""];
    if (!found) return response.writeHead(404).end();
    response.writeHead(200, { "content-type": found.type }).end(found.body);
  });
  let baseUrl = "";

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("parses JSON, keeps text as text and binary (artifacts) as bytes", async () => {
    const octokit = getOctokit("test-token", { baseUrl });
    expect((await octokit.request("GET /json")).data).toEqual({ id: 42 });
    expect((await octokit.request("GET /text")).data).toBe("plain words");
    const zip = (await octokit.request("GET /zip")).data as ArrayBuffer;
    expect(Buffer.from(zip)).toEqual(bodies["/zip"]?.body);
    const octet = (await octokit.request("GET /octet")).data as ArrayBuffer;
    expect(Buffer.from(octet)).toEqual(bodies["/octet"]?.body);
  });
});
