import type Dockerode from "dockerode";

/** Whether the daemon refused a writable-layer size (StorageOpt size) because its storage driver cannot enforce one. */
export function isDiskLimitRefusal(spec: Dockerode.ContainerCreateOptions, error: unknown): boolean {
  return spec.HostConfig?.StorageOpt !== undefined && /storage-?opt|quota/i.test(error instanceof Error ? error.message : String(error));
}

/**
 * Creates a container with its writable layer limited (docker.diskSize, as StorageOpt size). A storage
 * driver that cannot (overlay2 on ext4, vfs) refuses the option: the container is then created without
 * it, and `onRefused` says so. Engines and the source build's container alike.
 */
export async function createContainerWithinDiskLimit(
  docker: Dockerode,
  spec: Dockerode.ContainerCreateOptions,
  onRefused: (error: unknown) => void,
): Promise<Dockerode.Container> {
  try {
    return await docker.createContainer(spec);
  } catch (error) {
    if (!isDiskLimitRefusal(spec, error)) throw error;
    onRefused(error);
    const { StorageOpt: _refused, ...hostConfig } = spec.HostConfig ?? {};
    return await docker.createContainer({ ...spec, HostConfig: hostConfig });
  }
}
