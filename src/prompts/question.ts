import { z } from "zod";

const messageSchema = z.looseObject({
  role: z.string({ error: "expected a role string" }),
  content: z.union([z.string(), z.array(z.unknown())], { error: "expected content as a string or a list of parts" }),
});

/**
 * One line of a quality question set: what is asked (chat `messages` or a completion `prompt`, as in a
 * prompts file) and the reference `answer` the scorer holds each engine's answer to. GSM8K's test split
 * keeps its reference as worked reasoning ending in "#### 72"; the number scorer reads the last number of
 * either side, so such an answer can be used as it is. The id is optional (GSM8K's lines have none):
 * without one a question is named by its line in the file, q1, q2, …
 */
export const questionLineSchema = z
  .strictObject({
    id: z
      .union([z.string().min(1), z.number()], { error: "expected a non-empty string or number" })
      .transform(String)
      .optional(),
    messages: z.array(messageSchema, { error: "expected a list of chat messages" }).min(1).optional(),
    prompt: z.string({ error: "expected a string" }).optional(),
    answer: z
      .union([z.string().min(1), z.number()], { error: "expected the reference answer, a non-empty string or a number" })
      .transform(String),
  })
  .refine((line) => (line.messages === undefined) !== (line.prompt === undefined), {
    error: 'expected exactly one of "messages" or "prompt"',
    path: ["messages"],
  });

/** A question as a round sends it: a prompt (so the benchmark client sends it like any other) and its reference answer. */
export interface Question {
  id: string;
  messages?: z.infer<typeof messageSchema>[];
  prompt?: string;
  answer: string;
}
