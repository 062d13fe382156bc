import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";

/** What the stand-in answers for one snapshot (one `--query-gpu` call with cuda_version). */
export interface FakeGpuState {
  /** Rows in the probe's field order: index, uuid, memory.total, memory.used, driver_version, cuda_version, name. */
  gpus?: string[];
  /** Rows: gpu_uuid, pid, used_memory, process_name. */
  apps?: string[];
  /** Exit with this code, printing `message` on stderr, as nvidia-smi does when the driver is gone. */
  exitCode?: number;
  message?: string;
  /** Never answer (a wedged driver). */
  hang?: boolean;
  /** A driver older than the cuda_version query field: refuses it and prints the version in its banner only. */
  legacyDriver?: boolean;
  /** Fails the compute-apps query only. */
  appsExitCode?: number;
}

/*
 * An `nvidia-smi` stand-in: a shell script answering the queries speedgate makes from files written
 * here. Each snapshot (counted by the queries that ask for cuda_version, one per probe) reads the
 * next state, and the last state repeats, so a test can make the runner change between two engines.
 */
const SCRIPT = `#!/bin/sh
here=$(dirname "$0")
count_file="$here/probes"
case "$*" in
  *cuda_version*) n=$(( $(cat "$count_file" 2>/dev/null || echo 0) + 1 )); echo "$n" > "$count_file" ;;
  *) n=$(cat "$count_file" 2>/dev/null || echo 1) ;;
esac
state="$here/state/$n"
[ -d "$state" ] || state="$here/state/last"
[ -f "$state/hang" ] && exec sleep 1000
if [ -f "$state/exit" ]; then cat "$state/message" >&2; exit "$(cat "$state/exit")"; fi
case "$*" in
  *--query-gpu=*cuda_version*)
    if [ -f "$state/legacy" ]; then echo 'Field "cuda_version" is not a valid field to query.' >&2; exit 2; fi
    cat "$state/gpus.csv" ;;
  *--query-gpu=*) cut -d, -f1-5,7- "$state/gpus.csv" ;;
  *--query-compute-apps=*)
    if [ -f "$state/apps-exit" ]; then echo "Unable to query compute apps" >&2; exit "$(cat "$state/apps-exit")"; fi
    cat "$state/apps.csv" ;;
  "") echo "| NVIDIA-SMI 470.82.01    Driver Version: 470.82.01    CUDA Version: 11.4     |" ;;
  *) echo "unexpected arguments: $*" >&2; exit 64 ;;
esac
`;

async function writeState(dir: string, state: FakeGpuState): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "gpus.csv"), (state.gpus ?? []).map((row) => `${row}\n`).join(""));
  await writeFile(join(dir, "apps.csv"), (state.apps ?? []).map((row) => `${row}\n`).join(""));
  if (state.exitCode !== undefined) {
    await writeFile(join(dir, "exit"), String(state.exitCode));
    await writeFile(join(dir, "message"), state.message ?? "");
  }
  if (state.hang) await writeFile(join(dir, "hang"), "");
  if (state.legacyDriver) await writeFile(join(dir, "legacy"), "");
  if (state.appsExitCode !== undefined) await writeFile(join(dir, "apps-exit"), String(state.appsExitCode));
}

export interface FakeNvidiaSmi {
  dir: string;
  /** PATH with the stand-in first. */
  path: string;
  remove(): Promise<void>;
}

export async function installFakeNvidiaSmi(states: FakeGpuState[]): Promise<FakeNvidiaSmi> {
  const dir = await mkdtemp(join(tmpdir(), "speedgate-nvidia-smi-"));
  const script = join(dir, "nvidia-smi");
  await writeFile(script, SCRIPT);
  await chmod(script, 0o755);
  for (const [index, state] of states.entries()) await writeState(join(dir, "state", String(index + 1)), state);
  await writeState(join(dir, "state", "last"), states.at(-1) ?? {});
  return { dir, path: `${dir}${delimiter}${process.env.PATH ?? ""}`, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** Puts PATH back as it was when this was called. */
export function withPath(path: string): () => void {
  const before = process.env.PATH;
  process.env.PATH = path;
  return () => {
    process.env.PATH = before;
  };
}

export const IDLE_H100 = ["0, GPU-0f6c1d2e-aaaa-bbbb-cccc-000000000000, 81559, 4, 570.124.06, 12.8, NVIDIA H100 80GB HBM3"];
export const BUSY_H100 = ["0, GPU-0f6c1d2e-aaaa-bbbb-cccc-000000000000, 81559, 23046, 570.124.06, 12.8, NVIDIA H100 80GB HBM3"];
export const LEFTOVER_ENGINE = ["GPU-0f6c1d2e-aaaa-bbbb-cccc-000000000000, 4242, 23040, python3 -m sglang.launch_server, tp0"];
