import { z } from "zod";
import { absolutePath, boolean, enumOf, integerIn, nonEmptyString, positiveNumber } from "./config-field-kinds.js";

const gpusSchema = z.union([z.literal("all"), z.number().int().min(1), z.array(z.string().min(1)).min(1)], {
  error: 'expected "all", a GPU count such as 2, or a list of device ids such as ["0", "1"]',
});

const ulimitSchema = z.strictObject(
  {
    name: nonEmptyString("expected a ulimit name such as memlock"),
    soft: z.number({ error: "expected a whole number, -1 for unlimited" }).int(),
    hard: z.number({ error: "expected a whole number, -1 for unlimited" }).int(),
  },
  { error: "expected an object with name, soft and hard" },
);

const mountExpectation = 'expected { source, target } (readOnly: false to allow writes) or "host path:container path[:ro|rw]"';

/** "source:target[:ro|rw]", as `docker run -v` takes it, into the object form; anything else is left for the object's errors. */
function mountFromShortForm(value: unknown): unknown {
  if (typeof value !== "string") return value;
  const parts = value.split(":");
  const mode = parts.length === 3 ? parts[2] : undefined;
  const valid =
    (parts.length === 2 || parts.length === 3) && parts[1]?.startsWith("/") && (mode === undefined || mode === "ro" || mode === "rw");
  if (!valid) return value;
  return { source: parts[0], target: parts[1], readOnly: mode !== "rw" };
}

/*
 * A bind mount from the runner into both engines' containers: weights, the Hugging Face cache. Read-only
 * unless the config opts in, because the candidate is untrusted code and a writable mount is shared
 * with the next round's engines.
 */
const mountSchema = z.preprocess(
  mountFromShortForm,
  z.strictObject(
    {
      source: nonEmptyString("expected a path on the runner (absolute, or relative to the config's folder)"),
      target: absolutePath("expected an absolute path inside the container, such as /models"),
      readOnly: boolean().default(true),
    },
    { error: mountExpectation },
  ),
);

const SIZE = /^\d+(\.\d+)?[bkmgt]?$/i;
const sizeString = (expected: string) => z.string({ error: expected }).regex(SIZE, { error: expected });

/** A size, a share of the Docker host's memory, or no limit at all. */
const memoryLimitSchema = z
  .string({ error: 'expected a size such as "64g", a share of the host\'s memory such as "90%", or "unlimited"' })
  .regex(/^(\d+(\.\d+)?[bkmgt]?|(100|[1-9]\d?)(\.\d+)?%|unlimited)$/i, {
    error: 'expected a size such as "64g", a share of the host\'s memory such as "90%", or "unlimited"',
  });

const capabilitySchema = z
  .string({ error: "expected a Linux capability name such as SYS_PTRACE" })
  .regex(/^(CAP_)?[A-Z][A-Z_]+$/, { error: "expected a Linux capability name such as SYS_PTRACE" })
  .refine((name) => name !== "ALL" && name !== "CAP_ALL", { error: "expected a single capability, not ALL (that is privileged mode)" });

export const dockerSchema = z.strictObject(
  {
    gpus: gpusSchema.optional(),
    // Unset: 16g, or half the memory limit when that is smaller (shared memory counts against it).
    shmSize: sizeString('expected a size such as "16g", "512m"').optional(),
    // The IPC namespace: private by default (engines use /dev/shm, sized by shmSize); "host" is what
    // SGLang's docs run with, at the cost of sharing the runner's shared memory with the patch.
    ipc: enumOf(["private", "host", "shareable"] as const).default("private"),
    memory: memoryLimitSchema.default("90%"),
    pidsLimit: integerIn(1, 10_000_000, "expected a whole number of processes").default(16_384),
    cpus: positiveNumber("expected a number of CPUs greater than 0, such as 16 or 7.5").optional(),
    capAdd: z.array(capabilitySchema, { error: "expected a list of capability names, such as [SYS_PTRACE]" }).default([]),
    logMaxSize: sizeString('expected a size such as "64m"').default("64m"),
    logMaxFiles: integerIn(1, 100, "expected a whole number of files from 1 to 100").default(2),
    ulimits: z.array(ulimitSchema, { error: "expected a list of { name, soft, hard }" }).default([
      { name: "memlock", soft: -1, hard: -1 },
      { name: "stack", soft: 67_108_864, hard: 67_108_864 },
    ]),
    network: enumOf(["isolated", "host"] as const).default("isolated"),
    // The engine container's writable layer (what it writes outside its mounts): past it, writes fail
    // with ENOSPC instead of filling the daemon's disk. Enforced where the storage driver can (overlay2
    // on xfs with pquota, btrfs, zfs); elsewhere the round says it is not, and goes on.
    diskSize: z
      .string({ error: 'expected a size such as "100g", or "unlimited"' })
      .regex(/^(\d+(\.\d+)?[kmgt]?|unlimited)$/i, { error: 'expected a size such as "100g", or "unlimited"' })
      .default("100g"),
    mounts: z.array(mountSchema, { error: `expected a list of mounts, each ${mountExpectation.replace(/^expected /, "")}` }).default([]),
    // Replaces the image's ENTRYPOINT; [] clears it, so `command` is the whole command (vllm/vllm-openai's is `vllm serve`).
    entrypoint: z
      .array(nonEmptyString("expected each argument to be a non-empty string"), {
        error: "expected a list of arguments, or [] to clear the image's ENTRYPOINT",
      })
      .optional(),
    stopTimeoutS: positiveNumber("expected a number of seconds greater than 0").default(3),
    // The overlay image is removed after the round unless kept: a rebuild from cache is cheap, a
    // pile of per-run images on a runner's disk is not.
    keepCandidateImage: boolean().default(false),
  },
  { error: "expected an object with gpus, shmSize, ipc, memory, pidsLimit, ulimits, network" },
);

export const buildSchema = z.strictObject(
  {
    timeoutS: positiveNumber("expected a number of seconds greater than 0").default(3600),
    // The candidate's build runs the patch's code (postPatch): no network unless asked for.
    network: enumOf(["none", "default", "host"] as const).default("none"),
  },
  { error: "expected an object such as { timeoutS: 3600, network: none }" },
);

export type DockerSettings = z.infer<typeof dockerSchema>;
export type DockerMount = DockerSettings["mounts"][number];
