import { z } from "zod";
import { enumOf, nonEmptyString } from "./config-field-kinds.js";
import type { RoundRuntime } from "./engine-settings-schema.js";

/** bench.tokenizer as written: a path, or the path with where it is read from. */
export const tokenizerSchema = z.union(
  [
    nonEmptyString(),
    z.strictObject({
      path: nonEmptyString("expected the path of the model's tokenizer.json"),
      from: enumOf(["runner", "image"] as const).optional(),
    }),
  ],
  {
    error:
      "expected the path of the model's tokenizer.json, or { path, from: runner | image } (default: inside the baseline image with " +
      "runtime: docker, on the runner with runtime: process)",
  },
);

export type TokenizerSetting = z.infer<typeof tokenizerSchema>;

/** Where bench.tokenizer is read from: a file on the runner, or one inside the baseline image. */
export interface TokenizerLocation {
  path: string;
  from: "runner" | "image";
}

/** A round whose tokenizer does not say where it is: the model's files are in the image, or on the runner when there is no image. */
const defaultSource = (runtime: RoundRuntime): TokenizerLocation["from"] => (runtime === "docker" ? "image" : "runner");

export function tokenizerLocation(config: {
  bench: { tokenizer?: TokenizerSetting | undefined };
  runtime: RoundRuntime;
}): TokenizerLocation | null {
  const tokenizer = config.bench.tokenizer;
  if (tokenizer === undefined) return null;
  if (typeof tokenizer === "string") return { path: tokenizer, from: defaultSource(config.runtime) };
  return { path: tokenizer.path, from: tokenizer.from ?? defaultSource(config.runtime) };
}
