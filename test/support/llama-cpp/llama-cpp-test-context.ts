import { inject } from "vitest";
import type { LlamaCppFiles } from "../../../harness/llama-cpp/locate-llama-cpp.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** Set by the global setup: llama.cpp's server, the model and their image when they are here, else why not. */
    speedgateLlamaCpp:
      ({ available: true; image: string | null; imageProblem: string | null } & LlamaCppFiles) | { available: false; reason: string };
  }
}

/** llama.cpp's files for the real-engine tests, or null when they must skip (the global setup already said why). */
export function llamaCppTestContext(): LlamaCppFiles | null {
  const provided = inject("speedgateLlamaCpp");
  return provided.available ? { dir: provided.dir, server: provided.server, model: provided.model } : null;
}

/** The image with llama-server and the model, for the Docker half; null without a daemon (the Docker setup said why). */
export function llamaCppImage(): string | null {
  const provided = inject("speedgateLlamaCpp");
  return provided.available ? provided.image : null;
}
