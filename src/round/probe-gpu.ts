import { execFile } from "node:child_process";
import { cleanLogLine } from "../safe-text/sanitize-log-tail.js";
import { type GpuSnapshot, MAX_GPU_PROCESSES } from "../vocabulary/gpu-state-schema.js";

export interface ProbeGpuOptions {
  /** nvidia-smi can hang for a long time on a wedged driver; the round must not. */
  timeoutMs?: number;
  now?: () => Date;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const GPU_FIELDS = ["index", "uuid", "memory.total", "memory.used", "driver_version", "cuda_version", "name"];
const APP_FIELDS = ["gpu_uuid", "pid", "used_memory", "process_name"];

type Outcome = { ok: true; stdout: string } | { ok: false; error: string; output: string };

function run(args: string[], timeoutMs: number): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile("nvidia-smi", args, { timeout: timeoutMs, killSignal: "SIGKILL", maxBuffer: 4 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (!error) return resolve({ ok: true, stdout });
      const output = `${stdout}\n${stderr}`;
      const failure = error as { code?: unknown; killed?: boolean; signal?: unknown; message: string };
      if (failure.code === "ENOENT") return resolve({ ok: false, error: "nvidia-smi is not on the runner's PATH", output });
      if (failure.killed)
        return resolve({ ok: false, error: `nvidia-smi did not answer within ${Math.round(timeoutMs / 100) / 10} s`, output });
      const firstLine =
        output
          .split("\n")
          .map((line) => cleanLogLine(line).trim())
          .find((line) => line !== "") ?? "no output";
      const how =
        typeof failure.code === "number"
          ? `exited with code ${failure.code}`
          : typeof failure.signal === "string"
            ? `was killed by ${failure.signal}`
            : `failed (${typeof failure.code === "string" ? failure.code : failure.message})`;
      resolve({ ok: false, error: `nvidia-smi ${how}: ${firstLine}`.slice(0, 1_000), output });
    });
  });
}

/** nvidia-smi writes "[N/A]", "[Not Supported]" or "N/A" for what a GPU or a container cannot report. */
function field(value: string | undefined): string | null {
  const trimmed = cleanLogLine(value ?? "").trim();
  return trimmed === "" || /^\[?(N\/A|Not Supported|Unknown Error|Insufficient Permissions)\]?$/i.test(trimmed) ? null : trimmed;
}

function mebibytes(value: string | undefined): number | null {
  const text = field(value);
  if (text === null) return null;
  const parsed = Number(text.replace(/\s*MiB$/i, ""));
  return Number.isFinite(parsed) && parsed >= 0 ? Math.round(parsed) : null;
}

function lines(stdout: string): string[] {
  return stdout
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "");
}

/** The comma-separated fields of a line, the last `fields` − 1 being fixed and the rest (a name may hold commas) joined. */
function splitFields(line: string, count: number): string[] {
  const parts = line.split(",").map((part) => part.trim());
  if (parts.length <= count) return parts;
  return [...parts.slice(0, count - 1), parts.slice(count - 1).join(", ")];
}

function emptySnapshot(takenAt: string, error: string): GpuSnapshot {
  return { takenAt, error, driverVersion: null, cudaVersion: null, gpus: [], processes: [], processesError: null };
}

async function queryGpus(
  timeoutMs: number,
): Promise<{ ok: true; rows: string[][]; cudaFromHeader: string | null } | { ok: false; error: string }> {
  const query = (fields: string[]): Promise<Outcome> =>
    run([`--query-gpu=${fields.join(",")}`, "--format=csv,noheader,nounits"], timeoutMs);
  const first = await query(GPU_FIELDS);
  if (first.ok) return { ok: true, rows: lines(first.stdout).map((line) => splitFields(line, GPU_FIELDS.length)), cudaFromHeader: null };
  // Drivers before the cuda_version field refuse the whole query; ask without it, then read the version from the banner.
  if (!/cuda_version|not a valid field/i.test(first.output)) return { ok: false, error: first.error };
  const fields = GPU_FIELDS.filter((name) => name !== "cuda_version");
  const second = await query(fields);
  if (!second.ok) return { ok: false, error: second.error };
  const banner = await run([], timeoutMs);
  const cuda = banner.ok ? (/CUDA Version:\s*([\d.]+)/.exec(banner.stdout)?.[1] ?? null) : null;
  const rows = lines(second.stdout).map((line) => {
    const parts = splitFields(line, fields.length);
    return [...parts.slice(0, 5), "", ...parts.slice(5)];
  });
  return { ok: true, rows, cudaFromHeader: cuda };
}

/**
 * What nvidia-smi shows right now: each GPU's name and memory, the driver and CUDA versions, and the
 * processes holding memory. Never throws: a runner without nvidia-smi, a failing driver or a hang
 * gives a snapshot whose `error` says so.
 */
export async function probeGpuState(options: ProbeGpuOptions = {}): Promise<GpuSnapshot> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const takenAt = (options.now?.() ?? new Date()).toISOString();
  const gpuQuery = await queryGpus(timeoutMs);
  if (!gpuQuery.ok) return emptySnapshot(takenAt, gpuQuery.error);
  const gpus = gpuQuery.rows.slice(0, 64).map(([index, uuid, total, used, , , name]) => ({
    index: Math.max(0, Math.min(1_024, Number.parseInt(index ?? "", 10) || 0)),
    uuid: field(uuid)?.slice(0, 128) ?? null,
    name: (field(name) ?? "unknown GPU").slice(0, 256),
    memoryTotalMiB: mebibytes(total),
    memoryUsedMiB: mebibytes(used),
  }));
  if (gpus.length === 0) return emptySnapshot(takenAt, "nvidia-smi listed no GPU");
  const first = gpuQuery.rows[0] ?? [];
  const apps = await run([`--query-compute-apps=${APP_FIELDS.join(",")}`, "--format=csv,noheader,nounits"], timeoutMs);
  const processes = apps.ok
    ? lines(apps.stdout)
        .map((line) => splitFields(line, APP_FIELDS.length))
        .map(([gpuUuid, pid, used, name]) => ({
          gpuUuid: field(gpuUuid)?.slice(0, 128) ?? null,
          pid: Number.isSafeInteger(Number(pid)) && Number(pid) >= 0 && field(pid) !== null ? Number(pid) : null,
          name: (field(name) ?? "unknown process").slice(0, 512),
          usedMemoryMiB: mebibytes(used),
        }))
        .sort((a, b) => (b.usedMemoryMiB ?? 0) - (a.usedMemoryMiB ?? 0))
        .slice(0, MAX_GPU_PROCESSES)
    : [];
  return {
    takenAt,
    error: null,
    driverVersion: field(first[4])?.slice(0, 64) ?? null,
    cudaVersion: (field(first[5]) ?? gpuQuery.cudaFromHeader)?.slice(0, 64) ?? null,
    gpus,
    processes,
    processesError: apps.ok ? null : apps.error,
  };
}
