import { z } from "zod";

const messageSchema = z.looseObject({
  role: z.string({ error: "expected a role string" }),
  content: z.union([z.string(), z.array(z.unknown())], { error: "expected content as a string or a list of parts" }),
});

export const promptSchema = z
  .strictObject({
    id: z.union([z.string().min(1), z.number()], { error: "expected a non-empty string or number" }).transform(String),
    messages: z.array(messageSchema, { error: "expected a list of chat messages" }).min(1).optional(),
    prompt: z.string({ error: "expected a string" }).optional(),
    maxTokens: z
      .number({ error: "expected a whole number of tokens, 1 or more" })
      .int({ error: "expected a whole number of tokens, 1 or more" })
      .min(1, { error: "expected a whole number of tokens, 1 or more" })
      .optional(),
  })
  .refine((p) => (p.messages === undefined) !== (p.prompt === undefined), {
    error: 'expected exactly one of "messages" or "prompt"',
    path: ["messages"],
  });

export type Prompt = z.infer<typeof promptSchema>;
export type ChatMessage = z.infer<typeof messageSchema>;
