import type Dockerode from "dockerode";
import { createContainerWithinDiskLimit } from "./create-container-within-disk-limit.js";
import type { DockerSettings } from "../config/docker-settings-schema.js";
import { LogRingBuffer } from "../engine/log-ring-buffer.js";
import type { Logger } from "../logger.js";
import { DockerStreamDemuxer } from "./demux-docker-stream.js";
import { dockerStatusCode } from "./docker-status-code.js";
import { hardenContainer } from "./harden-container.js";
import { type ResourceLimits, containerResourceLimits } from "./resolve-resource-limits.js";

/** Every line the wrapper prints starts with this, so its own words are told from the build's. */
export const BUILD_MARKER = "speedgate-build:";
/** Written into the cache volume after a build that could write it: the next build finds the volume warm. */
const CACHE_STAMP = ".speedgate-build-cache";
/** The wrapper's exit code when the source folder is missing, so it is not taken for the build's own failure. */
export const BUILD_SOURCE_MISSING_EXIT = 66;

/** One argument in single quotes, as POSIX sh reads it back unchanged. */
function shellQuote(argument: string): string {
  return `'${argument.replaceAll("'", `'"'"'`)}'`;
}

/** Where ccache logs this build's own hits and misses: the volume's counters add up every build before it. */
const CCACHE_STATS_LOG = '"${TMPDIR:-/tmp}/speedgate-ccache-stats.log"';

/**
 * The build step's script: in the source folder, each command in turn (the first failure ends it),
 * with the cache volume's path in SPEEDGATE_BUILD_CACHE and whether it is read-only in
 * SPEEDGATE_BUILD_CACHE_READONLY, so a build can point its own cache there. It says before anything
 * runs whether the volume held an earlier build. POSIX sh: images range from Ubuntu to busybox.
 *
 * ccache, what engine builds use (CMake's compiler launcher), is set up here rather than in each
 * round's commands, because it is easy to get wrong: ccache refuses CCACHE_READONLY=0 outright
 * ("invalid boolean environment variable value"), so a read-only flag passed through breaks the
 * baseline's build; read-only it needs a temporary folder outside the volume; and its --show-stats
 * counts every build the volume has seen, so "no misses" would never be true after the first. With
 * ccache on the image's PATH, the script ends by printing this build's own counters
 * (`ccache --show-log-stats`), which source.buildCacheHit can match ("Misses: +0 /").
 */
export function buildScript(commands: readonly (readonly string[])[]): string {
  const lines = [
    `cd "$1" 2>/dev/null || { echo "${BUILD_MARKER} the source folder $1 does not exist in the image (candidate.sourceDir)"; exit ` +
      `${BUILD_SOURCE_MISSING_EXIT}; }`,
    'if [ -n "$2" ]; then',
    '  export SPEEDGATE_BUILD_CACHE="$2" SPEEDGATE_BUILD_CACHE_READONLY="$3"',
    `  export CCACHE_DIR="$2" CCACHE_STATSLOG=${CCACHE_STATS_LOG}`,
    '  if [ "$3" = "1" ]; then export CCACHE_READONLY=1 CCACHE_TEMPDIR="${TMPDIR:-/tmp}/speedgate-ccache"; else unset CCACHE_READONLY; fi',
    `  rm -f ${CCACHE_STATS_LOG}`,
    `  if [ -e "$2/${CACHE_STAMP}" ]; then echo "${BUILD_MARKER} cache warm"; else echo "${BUILD_MARKER} cache cold"; fi`,
    "fi",
  ];
  for (const command of commands) {
    const shown = command.join(" ").replaceAll("'", "");
    lines.push(`echo ${shellQuote(`${BUILD_MARKER} running ${shown}`)}`, `${command.map(shellQuote).join(" ")} || exit $?`);
  }
  // ccache 4.7 crashes on --show-log-stats when the log is missing (no call went through it).
  lines.push(`if [ -s ${CCACHE_STATS_LOG} ] && command -v ccache >/dev/null 2>&1; then ccache --show-log-stats || true; fi`);
  lines.push(`if [ -n "$2" ] && [ "$3" != "1" ]; then touch "$2/${CACHE_STAMP}" 2>/dev/null || true; fi`);
  return lines.join("\n");
}

export interface BuildContainerRequest {
  /** The image the build runs in; the result is committed on top of it. */
  imageId: string;
  sourceDir: string;
  commands: readonly (readonly string[])[];
  /** The runner's build cache, mounted at `target`; read-only for code the runner does not trust. */
  cache: { volume: string; target: string; readOnly: boolean } | null;
  /** source.buildCacheHit, matched against every line the build prints. */
  hitPattern: RegExp | null;
  networkMode: "none" | "default" | "host";
  docker: DockerSettings;
  limits: ResourceLimits;
  timeoutS: number;
  /** The run's labels: the container is swept with the run if this process dies. */
  containerLabels: Record<string, string>;
  /** The committed image's labels (it keeps every other part of the image's own config). */
  imageLabels: Record<string, string>;
  /** repository:tag of the committed image. */
  tag: string;
  signal: AbortSignal;
  logger: Logger;
  /** Names the step in the log, such as "baseline build". */
  label: string;
}

export type BuildContainerOutcome =
  | { status: "built"; imageId: string; ms: number; cache: "warm" | "cold" | null; hit: boolean | null; lines: string[] }
  | { status: "failed"; exitCode: number | null; lines: string[] }
  | { status: "timed_out"; lines: string[] }
  | { status: "cancelled" };

async function ensureVolume(docker: Dockerode, name: string): Promise<void> {
  try {
    await docker.getVolume(name).inspect();
  } catch (error) {
    if (dockerStatusCode(error) !== 404) throw error;
    // Creating a volume that now exists (another round made it meanwhile) returns it: no race to lose.
    await docker.createVolume({ Name: name, Labels: { "speedgate.build-cache": "true" } });
  }
}

/**
 * Runs the round's build commands in a container of the image, with the runner's build cache volume
 * mounted, and commits the result as a new image. The classic build API cannot mount a volume into a
 * RUN step, so this is `docker run` then `docker commit`: the container is hardened and limited like
 * an engine's, has no network unless build.network says otherwise, and the committed image keeps the
 * image's own command, entrypoint, working folder and environment. The container is always removed.
 */
export async function runBuildContainer(docker: Dockerode, request: BuildContainerRequest): Promise<BuildContainerOutcome> {
  const started = performance.now();
  let cacheState: "warm" | "cold" | null = null;
  let hit: boolean | null = request.hitPattern ? false : null;
  const log = new LogRingBuffer({ maxLines: 200 }, (line) => {
    request.logger.debug(`[${request.label}] ${line}`);
    if (cacheState === null && line === `${BUILD_MARKER} cache warm`) cacheState = "warm";
    if (cacheState === null && line === `${BUILD_MARKER} cache cold`) cacheState = "cold";
    if (request.hitPattern?.test(line) && !line.startsWith(BUILD_MARKER)) hit = true;
  });
  if (request.cache) await ensureVolume(docker, request.cache.volume);
  const image = await docker.getImage(request.imageId).inspect();
  const container = await createContainerWithinDiskLimit(
    docker,
    {
      Image: request.imageId,
      Entrypoint: [
        "/bin/sh",
        "-c",
        buildScript(request.commands),
        "speedgate-build",
        request.sourceDir,
        request.cache?.target ?? "",
        request.cache?.readOnly ? "1" : "0",
      ],
      Cmd: [],
      Labels: request.containerLabels,
      Tty: false,
      HostConfig: {
        NetworkMode: request.networkMode,
        ...hardenContainer(request.docker),
        // A build has its own IPC namespace whatever the engines share.
        IpcMode: "private",
        ...containerResourceLimits(request.limits),
        AutoRemove: false,
        ...(request.cache
          ? { Mounts: [{ Type: "volume", Source: request.cache.volume, Target: request.cache.target, ReadOnly: request.cache.readOnly }] }
          : {}),
      },
    },
    (error) =>
      request.logger.debug(
        `docker: ${request.label}: the daemon cannot limit the build's writable layer (${(error as Error).message}); building ` +
          `without the limit`,
      ),
  );
  let timedOut = false;
  const kill = (): void => {
    void container.kill().catch(() => undefined);
  };
  const timer = setTimeout(() => {
    timedOut = true;
    kill();
  }, request.timeoutS * 1000);
  request.signal.addEventListener("abort", kill, { once: true });
  try {
    const stream = await container.attach({ stream: true, stdout: true, stderr: true });
    const demuxer = new DockerStreamDemuxer((name, payload) => log.write(name, payload));
    const drained = (async () => {
      for await (const chunk of stream as AsyncIterable<Buffer | string>)
        demuxer.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
    })().catch(() => undefined);
    if (request.signal.aborted) return { status: "cancelled" };
    await container.start();
    const result = (await container.wait()) as { StatusCode?: number };
    await drained;
    log.end();
    const lines = log.snapshot();
    if (request.signal.aborted) return { status: "cancelled" };
    if (timedOut) return { status: "timed_out", lines };
    if (result.StatusCode !== 0) return { status: "failed", exitCode: result.StatusCode ?? null, lines };
    // The container ran the build as its entrypoint: the committed image gets the image's own config back.
    const config = {
      ...image.Config,
      Entrypoint: image.Config.Entrypoint ?? [],
      Cmd: image.Config.Cmd ?? [],
      Labels: { ...image.Config.Labels, ...request.imageLabels },
    };
    const [repo, tag] = splitTag(request.tag);
    // dockerode's commit() sends its options as the query only; the image config goes in the body.
    const committed = await new Promise<{ Id?: string }>((resolve, reject) => {
      docker.modem.dial(
        {
          path: "/commit?",
          method: "POST",
          statusCodes: { 200: true, 201: true, 404: "no such container", 500: "server error" },
          options: { _query: { container: container.id, repo, tag }, _body: config },
        },
        (error: unknown, data: unknown) => {
          if (error) return reject(error instanceof Error ? error : new Error(`docker: commit failed: ${JSON.stringify(error)}`));
          const id = typeof data === "object" && data !== null ? (data as { Id?: unknown }).Id : undefined;
          resolve(typeof id === "string" ? { Id: id } : {});
        },
      );
    });
    if (!committed.Id) throw new Error(`docker: committing the ${request.label} returned no image ID`);
    return {
      status: "built",
      imageId: committed.Id,
      ms: performance.now() - started,
      cache: request.cache ? cacheState : null,
      hit,
      lines,
    };
  } finally {
    clearTimeout(timer);
    request.signal.removeEventListener("abort", kill);
    await container.remove({ force: true, v: false }).catch((error: unknown) => {
      if (dockerStatusCode(error) !== 404)
        request.logger.warn(`docker: could not remove the ${request.label} container: ${(error as Error).message}`);
    });
  }
}

function splitTag(reference: string): [string, string] {
  const colon = reference.lastIndexOf(":");
  return colon > reference.lastIndexOf("/") ? [reference.slice(0, colon), reference.slice(colon + 1)] : [reference, "latest"];
}
