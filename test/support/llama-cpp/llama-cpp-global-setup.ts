import { execFile } from "node:child_process";
import { promisify } from "node:util";
import Dockerode from "dockerode";
import type { TestProject } from "vitest/node";
import { type TestEngineImage, acquireTestEngineImage } from "../../../harness/docker/acquire-test-engine-image.js";
import { refuseSkipWhenRequired, reportMissingPrerequisite } from "../prerequisites/missing-prerequisites.js";
import { buildLlamaCppImage } from "./build-llama-cpp-image.js";
import { locateLlamaCpp } from "../../../harness/llama-cpp/locate-llama-cpp.js";

const run = promisify(execFile);

const SKIPPED = "the llama.cpp tests (a real llama-server scored, failed and diagnosed through both runtimes)";
const FIX =
  "set SPEEDGATE_LLAMA_CPP_DIR to a folder with llama-server and tiny-words.gguf (scripts/build-llama-server.sh builds the server " +
  "from the npm package node-llama-cpp, scripts/make-tiny-model.py makes the model; docs/engines.md says how), or keep the " +
  "repository beside ../shared/engines/llama-cpp";

/**
 * Finds llama.cpp's server and the tiny model once per test run, checks that the server runs here, and
 * imports the image the Docker tests run it from (released at the end, as the reference engine's is).
 * Without them the tests skip with a notice, unless SPEEDGATE_REQUIRE_LLAMA_CPP=1 (CI), where that is an
 * error; without a Docker daemon only the containers' half skips (the Docker setup says so).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const located = locateLlamaCpp();
  let reason = "missing" in located ? located.missing : null;
  if (!("missing" in located)) {
    try {
      await run(located.server, ["--version"], { timeout: 30_000 });
    } catch (error) {
      reason =
        `${located.server} does not run here (${(error as Error).message.split("\n")[0] ?? ""}); it needs libgomp1 and libstdc++6 and ` +
        `a CPU with AVX2`;
    }
  }
  if (reason !== null || "missing" in located) {
    const why = reason ?? "llama.cpp was not found";
    const prerequisite = {
      what: "llama.cpp server",
      skipped: SKIPPED,
      reason: why,
      fix: FIX,
      requireVariable: "SPEEDGATE_REQUIRE_LLAMA_CPP",
    };
    refuseSkipWhenRequired(prerequisite);
    reportMissingPrerequisite(prerequisite);
    project.provide("speedgateLlamaCpp", { available: false, reason: why });
    return () => Promise.resolve();
  }
  let held: TestEngineImage | null = null;
  let imageProblem: string | null = null;
  const docker = new Dockerode();
  try {
    await docker.ping();
    held = await acquireTestEngineImage(docker, (daemon) => buildLlamaCppImage(daemon, located));
  } catch (error) {
    // No daemon or no busybox: the Docker setup skips (or, required, fails) the Docker tests and says why.
    imageProblem = (error as Error).message;
    if (process.env.SPEEDGATE_REQUIRE_LLAMA_CPP === "1" && process.env.SPEEDGATE_REQUIRE_DOCKER === "1")
      throw new Error(`SPEEDGATE_REQUIRE_LLAMA_CPP=1 but its image could not be built: ${imageProblem}`);
  }
  project.provide("speedgateLlamaCpp", { available: true, ...located, image: held?.image ?? null, imageProblem });
  return async () => {
    if (held) await held.release();
  };
}
