import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
  id?: string;
}
interface Job {
  if?: string;
  needs?: string | string[];
  permissions?: Record<string, string>;
  outputs?: Record<string, string>;
  steps: Step[];
}
interface Workflow {
  on: { workflow_dispatch?: { inputs: Record<string, { required?: boolean; type?: string }> } } & Record<string, unknown>;
  permissions: Record<string, string>;
  jobs: Record<string, Job>;
}

const workflow = parse(await readFile(fileURLToPath(new URL("../../.github/workflows/release.yml", import.meta.url)), "utf8")) as Workflow;
const jobs = Object.values(workflow.jobs);
const steps = jobs.flatMap((job) => job.steps);
const jobRunning = (script: string): Job => {
  const job = jobs.find((candidate) => candidate.steps.some((step) => step.run?.includes(script)));
  if (!job) throw new Error(`no job runs ${script}`);
  return job;
};

describe(".github/workflows/release.yml", () => {
  it("runs only when a maintainer dispatches it with a version, from the default branch", () => {
    expect(Object.keys(workflow.on)).toEqual(["workflow_dispatch"]);
    expect(workflow.on.workflow_dispatch?.inputs.version).toMatchObject({ required: true, type: "string" });
    expect(jobRunning("scripts/check-release-version.sh").if).toBe("github.ref_name == github.event.repository.default_branch");
  });

  it("tests and checks dist/ with .ci/run, holding only a read token and none in .git", () => {
    const verify = jobRunning(".ci/run");
    expect(verify.permissions).toEqual({ contents: "read" });
    expect(verify.steps.find((step) => step.uses?.startsWith("actions/checkout@"))?.with).toMatchObject({
      "persist-credentials": false,
      "fetch-depth": 0,
    });
    const order = verify.steps.map((step) => step.run ?? step.uses ?? "");
    expect(order.findIndex((line) => line.includes("check-release-version.sh"))).toBeLessThan(
      order.findIndex((line) => line.includes(".ci/run")),
    );
  });

  it("tags only after the checks passed, exactly the commit they tested, with the only write token", () => {
    expect(workflow.permissions).toEqual({});
    const release = jobRunning("scripts/tag-release.sh");
    expect(release.needs).toBe("verify");
    expect(release.permissions).toEqual({ contents: "write" });
    const verify = jobRunning(".ci/run");
    expect(verify.outputs?.sha).toBe("${{ steps.version.outputs.sha }}");
    expect(verify.steps.find((step) => step.id === "version")?.run).toContain("check-release-version.sh");
    expect(release.steps.find((step) => step.uses?.startsWith("actions/checkout@"))?.with?.ref).toBe("${{ needs.verify.outputs.sha }}");
    expect(release.steps.find((step) => step.run?.includes("tag-release.sh"))?.env).toEqual({
      VERSION: "${{ inputs.version }}",
      SHA: "${{ needs.verify.outputs.sha }}",
    });
    // Writing tags and a release needs no npm install: no dependency's install script runs beside the write token.
    expect(release.steps.some((step) => /npm (ci|install)/.test(step.run ?? ""))).toBe(false);
    // The CLI tarball comes from the committed bundle (scripts/pack-cli.mjs), never from an install.
    expect(release.steps.find((step) => step.run?.includes("gh release create"))?.run).toContain(
      'node scripts/pack-cli.mjs --out "$RUNNER_TEMP"',
    );
  });

  it("publishes a release with the CLI tarball for the tag it made", () => {
    const publish = steps.find((step) => step.run?.includes("gh release create"));
    expect(publish?.run).toMatch(/gh release create "v\$VERSION" "\$RUNNER_TEMP\/speedgate-\$VERSION\.tgz"[\s\\]+--verify-tag/);
  });

  it("passes the dispatched version to scripts through the environment, never into a script's text", () => {
    for (const step of steps) expect(step.run ?? "").not.toContain("${{");
  });
});
