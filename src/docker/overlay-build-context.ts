import { APPLY_PATCH_SCRIPT } from "./apply-patch-script.js";
import { type TarEntry, createTarArchive } from "./create-tar-archive.js";

export interface OverlayPlan {
  /** The baseline image's ID: the overlay starts from exactly the image the baseline ran. */
  baseImageId: string;
  patch: Buffer | null;
  /**
   * The patch's file name in the image's /speedgate/ (default candidate.patch; the baseline's overlay to its base commit is base.patch).
   */
  patchName?: string;
  /** Folder inside the image the patch applies in. */
  sourceDir: string | null;
  postPatch: string[][];
  /** Written as one LABEL instruction at the end (the build API's labels would add one step, and one layer copy, each). */
  labels: Record<string, string>;
}

export interface OverlayContext {
  archive: Buffer;
  dockerfile: string;
  /** 1-based Dockerfile step that applies the patch, so a failure there is told from a postPatch failure. */
  patchStep: number | null;
}

/** A Dockerfile word in JSON (exec) form, which needs no shell quoting. */
function execForm(args: string[]): string {
  return JSON.stringify(args);
}

/**
 * The generated context of an overlay build: `FROM <baseline image ID>`, the patch and the apply
 * script copied in, the patch applied in the source folder, then each postPatch command. Few
 * layers, because every layer is a full copy on some storage drivers.
 */
export function createOverlayContext(plan: OverlayPlan): OverlayContext {
  const lines = [`FROM ${plan.baseImageId}`];
  const entries: TarEntry[] = [];
  let patchStep: number | null = null;
  if (plan.patch) {
    if (!plan.sourceDir) throw new Error("an overlay build with a patch needs candidate.sourceDir");
    const name = plan.patchName ?? "candidate.patch";
    entries.push({ name, content: plan.patch }, { name: "apply-patch.sh", content: Buffer.from(APPLY_PATCH_SCRIPT), mode: 0o755 });
    lines.push(`COPY ${name} apply-patch.sh /speedgate/`);
    const patchArgument = name === "candidate.patch" ? [] : [`/speedgate/${name}`];
    lines.push(`RUN ${execForm(["/bin/sh", "/speedgate/apply-patch.sh", plan.sourceDir, ...patchArgument])}`);
    patchStep = lines.length;
  }
  for (const command of plan.postPatch) {
    // Not WORKDIR: that would also change the engine's working folder in the candidate container.
    const inSourceDir = plan.sourceDir ? ["/bin/sh", "-c", 'cd "$0" && exec "$@"', plan.sourceDir, ...command] : command;
    lines.push(`RUN ${execForm(inSourceDir)}`);
  }
  const labels = Object.entries(plan.labels).map(([key, value]) => `${JSON.stringify(key)}=${JSON.stringify(value)}`);
  // Last, because its values change every run: every step before it can come from the cache.
  if (labels.length > 0) lines.push(`LABEL ${labels.join(" ")}`);
  const dockerfile = `${lines.join("\n")}\n`;
  entries.unshift({ name: "Dockerfile", content: Buffer.from(dockerfile) });
  return { archive: createTarArchive(entries), dockerfile, patchStep };
}
