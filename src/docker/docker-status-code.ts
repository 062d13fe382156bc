/** The HTTP status of a failed Engine API call (dockerode puts it on the error), or null. */
export function dockerStatusCode(error: unknown): number | null {
  const code = (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof code === "number" ? code : null;
}
