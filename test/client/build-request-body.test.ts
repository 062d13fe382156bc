import { describe, expect, it } from "vitest";
import { type RequestSettings, buildRequestBody } from "../../src/client/build-request-body.js";

const settings: RequestSettings = { model: "m", maxTokens: 64, thinking: false, requestTimeoutS: 30 };
const body = (prompt: Parameters<typeof buildRequestBody>[0], extra: Partial<RequestSettings> = {}): Record<string, unknown> =>
  JSON.parse(buildRequestBody(prompt, { ...settings, ...extra }).body) as Record<string, unknown>;

describe("buildRequestBody", () => {
  it("asks a prompt's own length, on the completions endpoint for a plain prompt", () => {
    const built = buildRequestBody({ id: "p", prompt: "hello", maxTokens: 8 }, settings);
    expect(built.path).toBe("/v1/completions");
    expect(JSON.parse(built.body)).toMatchObject({
      prompt: "hello",
      max_tokens: 8,
      max_completion_tokens: 8,
      temperature: 0,
      stream: true,
    });
  });

  it("sends ignore_eos only for a fixed answer length, and llama.cpp's n_predict beside it", () => {
    const prompt = { id: "p", prompt: "hello", maxTokens: 8 };
    expect(body(prompt)).not.toHaveProperty("ignore_eos");
    for (const engineFamily of ["sglang", "vllm", null] as const) {
      const fixed = body(prompt, { ignoreEos: true, engineFamily });
      expect(fixed.ignore_eos).toBe(true);
      expect(fixed).not.toHaveProperty("n_predict");
    }
    expect(body(prompt, { ignoreEos: true, engineFamily: "llama.cpp" })).toMatchObject({ ignore_eos: true, n_predict: 8, max_tokens: 8 });
  });
});
