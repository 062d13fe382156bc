import { renderMissingPrerequisites } from "./missing-prerequisites.js";

/**
 * Listed first among the global setups, so its teardown runs last: after vitest's summary, it names
 * every group of tests the run skipped for lack of something, and how to get it.
 */
export default function setup(): () => void {
  return () => {
    process.stderr.write(renderMissingPrerequisites());
  };
}
