import { z } from "zod";
import { describeValue } from "./describe-value.js";
import { findClosestName } from "./find-closest-name.js";

function valueAt(root: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let current: unknown = root;
  for (const key of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out || "(root)";
}

function unwrap(schema: z.ZodType): z.ZodType {
  let current: z.ZodType = schema;
  for (;;) {
    if (
      current instanceof z.ZodDefault ||
      current instanceof z.ZodPrefault ||
      current instanceof z.ZodOptional ||
      current instanceof z.ZodNullable
    ) {
      current = current.unwrap() as z.ZodType;
    } else if (current instanceof z.ZodPipe) {
      // A transformed object (gate fills its default rule): the fields are the input side's.
      current = current.in as z.ZodType;
    } else {
      return current;
    }
  }
}

/** The field names an object schema accepts at a path, so an unknown field can be answered with the right ones. */
function knownKeysAt(schema: z.ZodType, path: ReadonlyArray<PropertyKey>): string[] {
  let current = unwrap(schema);
  for (const key of path) {
    if (current instanceof z.ZodObject && typeof key === "string") {
      const next = (current.shape as Record<string, z.ZodType>)[key];
      if (!next) return [];
      current = unwrap(next);
    } else if (current instanceof z.ZodArray && typeof key === "number") {
      current = unwrap(current.element as z.ZodType);
    } else if (current instanceof z.ZodRecord && typeof key === "string") {
      // A mapping keyed by name (the app config's gate.scenarios): every entry takes the same fields.
      current = unwrap(current.valueType as z.ZodType);
    } else {
      return [];
    }
  }
  return current instanceof z.ZodObject ? Object.keys(current.shape) : [];
}

/**
 * Turns zod issues into lines of the form `bench.tolerance: expected a number in (0, 1], got "90%"`:
 * the field, what it accepts, and what it was given.
 */
export function formatConfigIssues(issues: readonly z.core.$ZodIssue[], input: unknown, schema: z.ZodType): string[] {
  const lines: string[] = [];
  // A misspelled field is both unknown and, when required, missing: one line says both, naming the field meant.
  const meant = new Set<string>();
  for (const issue of issues) {
    if (issue.code !== "unrecognized_keys") continue;
    const known = knownKeysAt(schema, issue.path);
    for (const key of issue.keys) {
      const field = formatPath([...issue.path, key]);
      const closest = findClosestName(
        key,
        known.filter((name) => valueAt(input, [...issue.path, name]) === undefined),
      );
      if (closest !== null) meant.add(formatPath([...issue.path, closest]));
      const expected =
        closest !== null
          ? `did you mean \`${closest}\`?`
          : known.length > 0
            ? `expected one of ${known.join(", ")}`
            : "expected no such field";
      lines.push(`${field}: unknown field, ${expected}`);
    }
  }
  for (const issue of issues) {
    if (issue.code === "unrecognized_keys") continue;
    const given = valueAt(input, issue.path);
    const field = formatPath(issue.path);
    if (given === undefined && meant.has(field)) continue;
    lines.push(
      given === undefined ? `${field}: ${issue.message}, but it is missing` : `${field}: ${issue.message}, got ${describeValue(given)}`,
    );
  }
  return lines;
}
