export interface ContainerCommandValues {
  port: number;
  contextLimit: number;
  model: string;
  /** The address the engine should listen on: loopback on the host network, every interface on the run's network. */
  host: string;
}

/**
 * Fills {port}, {host}, {contextLimit} and {model} in each argument of a container command. Unlike the
 * process runtime there is no {node} or {speedgate}: host paths mean nothing inside an image.
 */
export function substituteContainerCommand(command: readonly string[], values: ContainerCommandValues): string[] {
  return command.map((argument) =>
    argument
      .replaceAll("{port}", String(values.port))
      .replaceAll("{host}", values.host)
      .replaceAll("{contextLimit}", String(values.contextLimit))
      .replaceAll("{model}", values.model),
  );
}
