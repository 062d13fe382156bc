/** The round was stopped from outside (SIGINT, SIGTERM, a cancelled job): engines are stopped and no card is written. */
export class RoundCancelledError extends Error {
  constructor(reason: unknown) {
    const why = reason instanceof Error ? reason.message : typeof reason === "string" ? reason : "cancelled";
    super(`round cancelled (${why}); every engine was stopped and no score card was written`);
    this.name = "RoundCancelledError";
  }
}
