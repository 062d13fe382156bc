import type Dockerode from "dockerode";
import type { DockerSettings } from "../config/docker-settings-schema.js";

/**
 * docker.mounts as the Engine API's bind mounts. Unlike the old `Binds` form, a `bind` mount whose
 * source is missing is an error instead of an empty folder the daemon creates as root, so a typo in
 * a weights path fails loudly (the round has checked every source before that anyway).
 */
export function toBindMounts(mounts: DockerSettings["mounts"]): Dockerode.MountSettings[] {
  return mounts.map((mount) => ({ Type: "bind", Source: mount.source, Target: mount.target, ReadOnly: mount.readOnly }));
}

/**
 * What the round config adds to an engine container besides the isolation defaults: its working
 * folder, mounts and entrypoint (the IPC namespace is part of hardenContainer). Kept apart from the spec's hardening so each reads alone.
 */
export function engineContainerOptions(docker: DockerSettings, workingDir: string | undefined) {
  return {
    config: {
      ...(workingDir ? { WorkingDir: workingDir } : {}),
      ...(docker.entrypoint ? { Entrypoint: docker.entrypoint } : {}),
    },
    hostConfig: {
      ...(docker.mounts.length > 0 ? { Mounts: toBindMounts(docker.mounts) } : {}),
    },
  };
}
