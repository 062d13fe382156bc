import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { describeBuildFailure } from "../../src/docker/build-failures.js";
import { followBuildStream } from "../../src/docker/follow-build-stream.js";
import { createRecordingLogger } from "../../src/logger.js";

function jsonStream(messages: object[], splitEvery = 7): Readable {
  const text = messages.map((message) => JSON.stringify(message)).join("\r\n") + "\r\n";
  const chunks: Buffer[] = [];
  for (let index = 0; index < text.length; index += splitEvery) chunks.push(Buffer.from(text.slice(index, index + splitEvery)));
  return Readable.from(chunks);
}

const conflictBuild = [
  { stream: "Step 1/4 : FROM sha256:abc\n" },
  { stream: " ---> abc123abc123\n" },
  { stream: "Step 2/4 : COPY candidate.patch apply-patch.sh /speedgate/\n" },
  { stream: " ---> 0123456789ab\n" },
  { stream: 'Step 3/4 : RUN ["/bin/sh","/speedgate/apply-patch.sh","/opt/engine"]\n' },
  { stream: " ---> Running in fedcba987654\n" },
  { stream: "speedgate-patch: applying the patch in /opt/engine with patch -p1\n" },
  {
    stream:
      "speedgate-patch: patch -p1 failed with status 1: the patch does not apply to this source tree\nspeedgate-patch: rejected-begin\n",
  },
  { stream: "speedgate-patch: | Hunk 1 FAILED 1/1.\nspeedgate-patch: |  one\nspeedgate-patch: | -zwei\n" },
  { stream: "speedgate-patch: rejected-end\n" },
  {
    errorDetail: { code: 64, message: "The command '/bin/sh /speedgate/apply-patch.sh /opt/engine' returned a non-zero code: 64" },
    error: "The command '/bin/sh /speedgate/apply-patch.sh /opt/engine' returned a non-zero code: 64",
  },
];

describe("followBuildStream", () => {
  it("reads the error from the stream of a 200 answer, with the step, step images and container", async () => {
    const logger = createRecordingLogger();
    const result = await followBuildStream(jsonStream(conflictBuild), logger);
    expect(result.error).toMatch(/returned a non-zero code: 64/);
    expect(result.lastStep).toBe(3);
    expect(result.createdImages).toEqual(["0123456789ab"]);
    expect(result.lastStepImage).toBe("0123456789ab");
    expect(result.stepContainer).toBe("fedcba987654");
    expect(result.imageId).toBeNull();
    expect(result.interrupted).toBeNull();
    expect(logger.lines.every((line) => line.level === "debug")).toBe(true);
    expect(result.lines).toContain("speedgate-patch: | -zwei");
  });

  it("takes the image ID from the aux message of a build that succeeded", async () => {
    const result = await followBuildStream(
      jsonStream([{ stream: "Step 1/1 : FROM x\n" }, { aux: { ID: "sha256:feed" } }, { stream: "Successfully built feed\n" }]),
      createRecordingLogger(),
    );
    expect(result).toMatchObject({ imageId: "sha256:feed", error: null });
  });
});

describe("describeBuildFailure", () => {
  it("turns a failed patch step into a patch conflict with the rejected hunks as the log tail", async () => {
    const result = await followBuildStream(jsonStream(conflictBuild), createRecordingLogger());
    const failure = describeBuildFailure("candidate", result, 3);
    expect(failure).toMatchObject({ engine: "candidate", stage: "patch", kind: "patch_conflict" });
    expect(failure.summary).toBe("patch -p1 failed with status 1: the patch does not apply to this source tree");
    expect(failure.logTail).toEqual(["Hunk 1 FAILED 1/1.", " one", "-zwei"]);
  });

  it("treats the same exit code in another step as a build error", async () => {
    const result = await followBuildStream(jsonStream(conflictBuild), createRecordingLogger());
    const failure = describeBuildFailure("candidate", result, 4);
    expect(failure).toMatchObject({ stage: "build", kind: "build_error" });
    expect(failure.logTail.at(-1)).toMatch(/non-zero code: 64/);
  });
});
