import { accessSync, constants, statSync } from "node:fs";
import { delimiter, isAbsolute, resolve } from "node:path";

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * The file `program` names, as execvp would find it: a path (relative to `cwd`) when it holds a
 * slash, else the first executable file of that name on `path`. Null when there is none, so a
 * missing program is said before anything is started for it.
 */
export function resolveProgram(program: string, options: { cwd: string; path: string | undefined }): string | null {
  if (program.includes("/")) {
    const file = isAbsolute(program) ? program : resolve(options.cwd, program);
    return isExecutableFile(file) ? file : null;
  }
  for (const dir of (options.path ?? "").split(delimiter)) {
    // An empty entry means the current folder, as for execvp.
    const file = resolve(options.cwd, dir === "" ? "." : dir, program);
    if (isExecutableFile(file)) return file;
  }
  return null;
}
