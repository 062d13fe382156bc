import type { DockerSettings } from "../config/docker-settings-schema.js";
import type { EngineFailure, EngineRole } from "../vocabulary/engine-failure.js";

/** Linux's RLIMIT_* numbers (asm-generic/resource.h), as runc names a limit it could not set: "error setting rlimit type 8". */
const RLIMIT_NAMES = [
  "cpu",
  "fsize",
  "data",
  "stack",
  "core",
  "rss",
  "nproc",
  "nofile",
  "memlock",
  "as",
  "locks",
  "sigpending",
  "msgqueue",
  "nice",
  "rtprio",
  "rttime",
];

/** A program the container's command names that its image does not have: the command's fault, as a missing program is for a process. */
const MISSING_PROGRAM = /executable file not found|exec: "[^"]*": (?:stat .*: )?no such file or directory|exec format error/i;

interface Setting {
  /** The round config's field, such as "docker.ulimits". */
  field: string;
  /** What of it, in the daemon's terms: "memlock (rlimit type 8)". */
  what: string | null;
}

/** Which of the round's Docker settings the daemon's message is about, when it says. */
function refusedSetting(message: string, docker: DockerSettings): Setting | null {
  const rlimit = /rlimit type (\d+)/i.exec(message);
  if (rlimit) {
    const name = RLIMIT_NAMES[Number(rlimit[1])] ?? null;
    const configured = docker.ulimits.find((limit) => limit.name === name);
    const value = configured ? ` ${configured.soft === -1 ? "unlimited" : configured.soft}` : "";
    return { field: "docker.ulimits", what: name ? `${name}${value} (rlimit type ${rlimit[1]})` : `rlimit type ${rlimit[1]}` };
  }
  const ulimit = /(?:invalid|unknown) ulimit (?:type|name)?:? ?(\w+)?|ulimit/i.exec(message);
  if (ulimit) return { field: "docker.ulimits", what: ulimit[1] ?? null };
  const checks: ReadonlyArray<[RegExp, string]> = [
    [/range of cpus|nanocpus|cpu quota|cpu shares/i, "docker.cpus"],
    [/minimum memory limit|memory limit|memory\.max|memory swappiness/i, "docker.memory"],
    [/shm ?size|\/dev\/shm/i, "docker.shmSize"],
    [/pids/i, "docker.pidsLimit"],
    [/capabilit|CAP_/i, "docker.capAdd"],
    [/device driver|device request|devices cgroup|gpu/i, "docker.gpus"],
    [/mount|bind source path|volume/i, "docker.mounts"],
    [/network|endpoint|bridge|iptables/i, "docker.network"],
    [/ipc/i, "docker.ipc"],
  ];
  const found = checks.find(([pattern]) => pattern.test(message));
  return found ? { field: found[1], what: null } : null;
}

function hintFor(setting: Setting | null): string {
  const tail = "This happened before the engine ran: it says nothing about the engine or the patch.";
  if (!setting) {
    return (
      `The Docker daemon refused the container speedgate asked for. Its message above names what it would not do; try the same with ` +
      `\`docker run\` on the runner and adjust the round's \`docker\` settings. ${tail}`
    );
  }
  if (setting.field === "docker.ulimits") {
    const which = setting.what ? ` ${setting.what}` : "";
    return (
      `The Docker daemon may not set the ulimit${which} that \`docker.ulimits\` asks for (the default is an unlimited memlock, which a ` +
      `daemon without CAP_SYS_RESOURCE, rootless or inside a container, cannot grant). Set \`docker.ulimits\` to what this daemon ` +
      `allows, for example \`[{ name: memlock, soft: 67108864, hard: 67108864 }]\`, or \`[]\` for the daemon's defaults. ${tail}`
    );
  }
  return (
    `The Docker daemon refused the container's \`${setting.field}\` setting: set it to what this runner allows (the daemon's message ` +
    `above says what it would not do), or remove it to keep the default. ${tail}`
  );
}

/**
 * The card's failure for a container the daemon would not create or start: the setting it names (a
 * ulimit it may not raise, a CPU count above the host's), or the command's missing program.
 */
export function describeContainerRefusal(
  role: EngineRole,
  action: "create" | "start",
  message: string,
  docker: DockerSettings,
): EngineFailure {
  const summary = message
    .trim()
    .replace(/^\(HTTP code \d+\) [\w ]+ - /, "")
    .slice(0, 1_000);
  if (MISSING_PROGRAM.test(message)) {
    return {
      engine: role,
      stage: "startup",
      kind: "exited",
      label: "the engine command could not be started",
      summary,
      hint:
        "The image has no program by the name the command's first argument gives (or it is not executable): check `baseline.command` " +
        "(and `candidate.command`) against the image, and `docker.entrypoint`, which replaces the image's ENTRYPOINT.",
      exitCode: null,
      signal: null,
      logTail: [],
    };
  }
  const setting = refusedSetting(message, docker);
  return {
    engine: role,
    stage: "startup",
    kind: "container_refused",
    label: `Docker refused to ${action} the ${role} container${setting ? ` (${setting.field})` : ""}`,
    summary,
    hint: hintFor(setting),
    exitCode: null,
    signal: null,
    logTail: [],
  };
}
