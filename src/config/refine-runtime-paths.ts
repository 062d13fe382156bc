import { posix } from "node:path";
import type { z } from "zod";
import type { RoundRuntime } from "./engine-settings-schema.js";

/** The part of a parsed config that says where engines run and what they mount. */
interface RuntimePaths {
  runtime: RoundRuntime;
  baseline: { cwd?: string | undefined };
  candidate: { cwd?: string | undefined; sourceDir?: string | undefined };
  docker: { mounts: ReadonlyArray<{ target: string }> };
}

/** Where each engine runs and what is mounted must make sense for the runtime before any path is looked at on disk. */
export function refineRuntimePaths(config: RuntimePaths, ctx: z.RefinementCtx): void {
  if (config.runtime === "docker") {
    for (const role of ["baseline", "candidate"] as const) {
      const cwd = config[role].cwd;
      if (cwd !== undefined && !posix.isAbsolute(cwd)) {
        ctx.addIssue({
          code: "custom",
          path: [role, "cwd"],
          message: "expected an absolute path inside the image (the container's working folder)",
        });
      }
    }
  }
  if (config.runtime === "process" && config.docker.mounts.length > 0) {
    ctx.addIssue({
      code: "custom",
      path: ["docker", "mounts"],
      message: "expected no mounts with runtime: process (engines on the host see its folders directly)",
    });
  }
  const sourceDir = config.runtime === "docker" ? config.candidate.sourceDir : undefined;
  const seen = new Set<string>();
  config.docker.mounts.forEach((mount, index) => {
    const target = posix.normalize(mount.target).replace(/\/$/, "");
    // The path is the whole mount: the formatter then shows it as written, short form included.
    if (seen.has(target)) {
      ctx.addIssue({
        code: "custom",
        path: ["docker", "mounts", index],
        message: `expected each container path mounted once, but ${target} is already mounted`,
      });
    }
    seen.add(target);
    if (sourceDir && `${posix.normalize(sourceDir)}/`.startsWith(`${target}/`)) {
      ctx.addIssue({
        code: "custom",
        path: ["docker", "mounts", index],
        message: `expected a target that does not cover candidate.sourceDir (${sourceDir}): the mount would hide the patched source`,
      });
    }
  });
}
