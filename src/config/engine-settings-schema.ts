import { z } from "zod";
import {
  boolean,
  commandListSchema,
  commandSchema,
  enumOf,
  envSchema,
  integerIn,
  nonEmptyString,
  positiveNumber,
} from "./config-field-kinds.js";

/** Where the engines run: in containers of an image, or as processes on the runner itself. */
export const runtimeSchema = enumOf(["docker", "process"] as const);

export type RoundRuntime = z.infer<typeof runtimeSchema>;

export const buildSpecSchema = z.strictObject(
  {
    context: nonEmptyString("expected the path of a build context folder"),
    dockerfile: nonEmptyString("expected a Dockerfile path relative to the context").default("Dockerfile"),
    args: z.record(z.string(), z.string({ error: "expected each build arg to be a string" })).default({}),
  },
  { error: "expected an object with context, and optionally dockerfile and args" },
);

export type BuildSpec = z.infer<typeof buildSpecSchema>;

export const healthSchema = z.strictObject(
  {
    path: z
      .string({ error: "expected a URL path starting with /" })
      .startsWith("/", { error: "expected a URL path starting with /" })
      .default("/health"),
    timeoutS: positiveNumber("expected a number of seconds greater than 0").default(1200),
    intervalMs: integerIn(10, 60_000, "expected a whole number of milliseconds from 10 to 60000").default(500),
  },
  { error: "expected an object such as { path: /health, timeoutS: 1200 }" },
);

export const baselineSchema = z.strictObject(
  {
    image: nonEmptyString("expected an image reference such as lmsysorg/sglang:v0.5.5").optional(),
    build: buildSpecSchema.optional(),
    command: commandSchema.optional(),
    cwd: nonEmptyString("expected a folder path").optional(),
    env: envSchema.default({}),
  },
  { error: "expected an object with image, build or command" },
);

export const candidateSchema = z.strictObject(
  {
    patch: nonEmptyString("expected the path of a patch file").optional(),
    sourceDir: nonEmptyString("expected the folder the patch applies in").optional(),
    command: commandSchema.optional(),
    postPatch: commandListSchema.default([]),
    build: buildSpecSchema.optional(),
    env: envSchema.optional(),
    cwd: nonEmptyString("expected a folder path").optional(),
    // runtime: process runs the candidate as the runner's user: the action refuses a pull request's
    // patch there unless the config vouches for every author who can reach the workflow.
    trusted: boolean().default(false),
  },
  { error: "expected an object with patch, sourceDir, command, postPatch, build, env, cwd or trusted" },
);

export type BaselineSettings = z.infer<typeof baselineSchema>;
export type CandidateSettings = z.infer<typeof candidateSchema>;
