import { readFile } from "node:fs/promises";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigError } from "../../src/vocabulary/config-error.js";
import { readImageFile } from "../../src/docker/read-image-file.js";
import { LABEL_RUN_ID } from "../../src/docker/resource-labels.js";
import { createRecordingLogger } from "../../src/logger.js";
import { runRound } from "../../src/round/run-round.js";
import { sha256Hex } from "../../src/tokens/create-token-counter.js";
import { TEST_TOKENIZER_PATH } from "../../harness/fixtures/tokenizer/generate-tokenizer.js";
import { TEST_MODEL_DIR } from "../../harness/docker/build-test-engine-image.js";
import { dockerTestContext } from "../support/docker/docker-test-context.js";
import { listRunResources } from "../support/docker/list-run-resources.js";
import { makeDockerRound } from "../../harness/docker/make-docker-round.js";
import { getFreePort } from "../support/get-free-port.js";

const context = dockerTestContext();

describe.skipIf(!context)("bench.tokenizer inside the baseline image (real daemon)", () => {
  const { docker, image } = context ?? { docker: null, image: "" };
  const runIds: string[] = [];
  afterEach(async () => {
    // The container the file was read from is gone whatever happened, as is everything else of the run.
    for (const runId of runIds.splice(0))
      if (docker) expect(await listRunResources(docker, runId)).toEqual({ containers: [], networks: [] });
  });

  it("reads the tokenizer through the model folder's symlink and counts every answer with it", async () => {
    const { round, runId } = makeDockerRound({
      image,
      port: await getFreePort(),
      prompts: 4,
      bench: { tokenizer: `${TEST_MODEL_DIR}/tokenizer.json` },
    });
    runIds.push(runId);
    const card = await runRound({ round, logger: createRecordingLogger(), signal: new AbortController().signal, runId });
    expect(card.failure).toBeNull();
    expect(card.settings.tokenizer).toBe(sha256Hex(await readFile(TEST_TOKENIZER_PATH)));
    // The reference engine streams one token of this tokenizer per word: its claim and speedgate's count agree.
    for (const prompt of card.prompts) {
      expect(prompt.status).toBe("scored");
      expect(prompt.candidate).toMatchObject({ outputTokens: 12, claimedTokens: 12 });
      expect(prompt.agreement).toBe(1);
    }
    expect(card.medianAgreement).toBe(1);
  });

  it("stops the round before any engine starts when the path is not in the image, naming bench.tokenizer", async () => {
    const { round, runId } = makeDockerRound({
      image,
      port: await getFreePort(),
      prompts: 2,
      bench: { tokenizer: "/models/missing/tokenizer.json" },
    });
    runIds.push(runId);
    const logger = createRecordingLogger();
    const error = await runRound({ round, logger, signal: new AbortController().signal, runId }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(
      /^bench\.tokenizer: \/models\/missing\/tokenizer\.json: \/models\/missing\/tokenizer\.json is not in the baseline image sha256:/,
    );
    expect(logger.lines.some((line) => /started in container/.test(line.message))).toBe(false);
  });

  it("refuses a folder, and removes the container it read from", async () => {
    if (!docker) return;
    const imageId = (await docker.getImage(image).inspect()).Id;
    const runId = `test-read-${Date.now().toString(36)}`;
    const read = readImageFile(docker, {
      imageId,
      path: TEST_MODEL_DIR,
      labels: { [LABEL_RUN_ID]: runId },
      maxBytes: 1024,
      what: "bench.tokenizer",
    });
    await expect(read).rejects.toThrow(`bench.tokenizer: ${TEST_MODEL_DIR} in the baseline image is a directory, not a file`);
    const left = await docker.listContainers({ all: true, filters: { label: [`${LABEL_RUN_ID}=${runId}`] } });
    expect(left).toEqual([]);
  });
});
