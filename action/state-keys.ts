/** What main saves for the post step (core.saveState), which runs even when main was cancelled. */
export const STATE = {
  runId: "run-id",
  runtime: "runtime",
} as const;
