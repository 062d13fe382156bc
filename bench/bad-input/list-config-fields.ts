import { z } from "zod";
import { roundConfigSchema } from "../../src/config/round-config-schema.js";

function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (;;) {
    if (
      current instanceof z.ZodDefault ||
      current instanceof z.ZodPrefault ||
      current instanceof z.ZodOptional ||
      current instanceof z.ZodNullable
    ) {
      current = current.unwrap() as z.ZodType;
    } else if (current instanceof z.ZodPipe) current = current.in as z.ZodType;
    else break;
  }
  return current;
}

/**
 * Every field of the round config as a dotted path (objects are walked, anything else is a field),
 * so the corpus can prove it tries a wrong value for each, including fields added later.
 */
export function listConfigFields(schema: z.ZodType = roundConfigSchema, prefix = ""): string[] {
  const inner = unwrap(schema);
  if (!(inner instanceof z.ZodObject)) return [prefix];
  return Object.entries(inner.shape as Record<string, z.ZodType>).flatMap(([key, child]) =>
    listConfigFields(child, prefix ? `${prefix}.${key}` : key),
  );
}
