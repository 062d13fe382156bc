import { z } from "zod";

/*
 * The kinds of field every section of the round config is written with. Each carries the sentence a
 * user reads when it is wrong ("expected …"); the formatter adds the field's path and the value that
 * was given. Keeping the expectation next to the field means a new field cannot be added without
 * saying what it accepts.
 */

export const nonEmptyString = (expected = "a non-empty string") => z.string({ error: expected }).min(1, { error: expected });

export const integerIn = (min: number, max: number, expected: string) =>
  z.number({ error: expected }).int({ error: expected }).min(min, { error: expected }).max(max, { error: expected });

export const positiveNumber = (expected: string) => z.number({ error: expected }).gt(0, { error: expected });

export const boolean = () => z.boolean({ error: "expected true or false" });

/** A share in [0, 1), such as gate.maxUnscored or bench.minPromptAgreement. */
export const shareSchema = (expected: string) => z.number({ error: expected }).min(0, { error: expected }).lt(1, { error: expected });

/** A share that may be whole: 1 asks for all of it. */
export const wholeShareSchema = (expected: string) => z.number({ error: expected }).min(0, { error: expected }).max(1, { error: expected });

export const enumOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `expected one of ${values.map((v) => JSON.stringify(v)).join(", ")}` });

export const absolutePath = (expected: string) => z.string({ error: expected }).regex(/^\/./, { error: expected });

export const commandSchema = z
  .array(nonEmptyString("expected each argument to be a non-empty string"), {
    error: 'expected a list of arguments, such as [python3, -m, sglang.launch_server, --port, "{port}"]',
  })
  .min(1, { error: "expected at least the program to run" });

export const commandListSchema = z.array(commandSchema, { error: "expected a list of commands, each a list of arguments" });

export const envSchema = z.record(z.string(), z.string({ error: "expected each value to be a string" }), {
  error: "expected a map of variable names to string values",
});
