import Dockerode from "dockerode";
import { inject } from "vitest";

declare module "vitest" {
  export interface ProvidedContext {
    /** Set by the global setup: the test engine image when a daemon answered, else why not. */
    speedgateDocker: { available: true; image: string } | { available: false; reason: string };
  }
}

/** What Docker tests need, or null when they must skip (the global setup already said why). */
export function dockerTestContext(): { docker: Dockerode; image: string } | null {
  const provided = inject("speedgateDocker");
  if (!provided.available) return null;
  return { docker: new Dockerode(), image: provided.image };
}
