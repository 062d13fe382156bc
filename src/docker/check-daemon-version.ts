import type Dockerode from "dockerode";
import type { Logger } from "../logger.js";

/*
 * CVE-2024-29018 (GHSA-mq39-4gv4-mvpx): on a daemon before 26.0.0 (25.0.5 and 23.0.11 in their lines),
 * the embedded DNS server of an internal network forwarded a container's queries for outside names
 * through the host's own resolver when that resolver is on the host's loopback (systemd-resolved's
 * 127.0.0.53): a patched engine on `docker.network: isolated` could send data out in DNS names.
 * speedgate gives every isolated engine its own loopback as DNS server (create-container-spec.ts),
 * which keeps such queries inside the container on any version; the version is still checked at the
 * round's first container and named in a warning, so an old daemon is upgraded rather than relied on.
 */

/** The first release of each line with the fix; 24.x never got one. */
export const DNS_LEAK_FIXED_IN = ["26.0.0", "25.0.5", "23.0.11"] as const;

/** Whether a daemon version (`docker version`'s Server.Version, "20.10.24+dfsg1", "27.3.1") has the fix; null when unreadable. */
export function hasDnsLeakFix(version: string): boolean | null {
  const match = /^(\d+)\.(\d+)\.(\d+)/.exec(version.trim());
  if (!match) return null;
  const [major, minor, patch] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (major >= 26) return true;
  if (major === 25) return minor > 0 || patch >= 5;
  if (major === 23) return minor > 0 || patch >= 11;
  return false;
}

/** Reads the daemon's version and warns when it predates the fix. Never throws: the round goes on. */
export async function checkDaemonVersion(docker: Dockerode, logger: Logger): Promise<string | null> {
  let version: string;
  try {
    const reported = ((await docker.version()) as { Version?: unknown }).Version;
    version = typeof reported === "string" ? reported : "";
  } catch (error) {
    logger.warn(
      `docker: could not read the daemon's version (${(error as Error).message}); CVE-2024-29018 needs Docker ` +
        `${DNS_LEAK_FIXED_IN.join(", ")} or newer`,
    );
    return null;
  }
  const fixed = hasDnsLeakFix(version);
  if (fixed === true) return version;
  logger.warn(
    `docker: the daemon is Docker ${version || "of an unknown version"}, ${fixed === false ? "older than" : "not known to have"} the ` +
      `fix for CVE-2024-29018 ` +
      `(${DNS_LEAK_FIXED_IN.join(", ")}): on its internal networks the embedded DNS server can forward a query through the host's ` +
      `resolver, a way out of docker.network: isolated. ` +
      "speedgate points each isolated engine's DNS at the engine's own loopback, so its queries for outside names stay in its " +
      "container; upgrade Docker all the same (docs/gpu-runner-checklist.md)",
  );
  return version;
}
