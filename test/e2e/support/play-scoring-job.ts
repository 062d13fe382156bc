import { readFile } from "node:fs/promises";
import { dirname } from "node:path";
import { zipSync } from "fflate";
import { parseScorecardJson } from "../../../src/scorecard/read-scorecard.js";
import type { Scorecard } from "../../../src/scorecard/scorecard-schema.js";
import { type StepResult, runStep } from "../../action/support/action-step.js";

/*
 * One scoring job as the example workflows define it, played on a simulated runner: the bundled
 * action's main step (patch-from-pr against the GitHub API the test points it at), its post step,
 * then actions/upload-artifact of the two card files as `speedgate-scorecard`.
 */

export interface ScoringJobOptions {
  /** A folder of this job's own: the runner's files and RUNNER_TEMP. */
  workDir: string;
  /** GITHUB_RUN_ID: the workflow run the app is later told about. */
  runId: number;
  event: { name: string; payload: unknown };
  configPath: string;
  apiUrl: string;
  failOnGate: boolean;
}

export interface ScoringJob {
  main: StepResult;
  post: StepResult;
  card: Scorecard;
  /** scorecard.md as the action wrote it: what the pull request should show. */
  markdown: string;
  /** The `speedgate-scorecard` artifact as upload-artifact stores it. */
  artifact: Uint8Array;
}

export async function playScoringJob(options: ScoringJobOptions): Promise<ScoringJob> {
  const env = { GITHUB_RUN_ID: String(options.runId), GITHUB_API_URL: options.apiUrl };
  const main = await runStep({
    entry: "index",
    workDir: options.workDir,
    event: options.event,
    env,
    inputs: {
      config: options.configPath,
      "patch-from-pr": "true",
      "fail-on-gate": String(options.failOnGate),
      "github-token": "ghs_runner_job_token",
    },
  });
  // post-if: always(): the runner runs it whatever main did.
  const post = await runStep({ entry: "post", workDir: options.workDir, event: options.event, env, state: main.state });
  const jsonPath = main.outputs["scorecard-json"] ?? "";
  const markdownPath = main.outputs["scorecard-md"] ?? "";
  // The upload step's condition in the example workflows: no card, no artifact.
  if (jsonPath === "" || markdownPath === "")
    throw new Error(`the action wrote no card (exit ${main.exitCode}):\n${main.stdout}\n${main.stderr}`);
  // Files given to upload-artifact keep their paths below the least common ancestor: here, none.
  if (dirname(jsonPath) !== dirname(markdownPath)) throw new Error(`the card files are in different folders: ${jsonPath}, ${markdownPath}`);
  const json = await readFile(jsonPath);
  const markdown = await readFile(markdownPath, "utf8");
  const artifact = zipSync({ "scorecard.json": json, "scorecard.md": new TextEncoder().encode(markdown) }, { level: 6 });
  return { main, post, card: parseScorecardJson(json.toString("utf8"), jsonPath), markdown, artifact };
}
