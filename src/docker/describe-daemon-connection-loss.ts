/** Socket errors that mean the daemon's end of the connection is gone, not that a request was refused. */
const LOST_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ECONNABORTED", "EHOSTUNREACH", "ENETUNREACH"]);

/** The same errors once a caller folded them into a message (the sweep aggregates its problems). */
const LOST_MESSAGE = /\b(?:ECONNREFUSED|ECONNRESET|EPIPE|ECONNABORTED)\b|connect ENOENT|socket hang up/;

function describeOne(error: unknown): string | null {
  if (!(error instanceof Error)) return null;
  const { code, syscall } = error as NodeJS.ErrnoException;
  // ENOENT only on connect: the daemon's socket file is gone (a missing build context is ENOENT too).
  if ((code && LOST_CODES.has(code)) || (code === "ENOENT" && syscall === "connect") || LOST_MESSAGE.test(error.message)) {
    return code && !error.message.includes(code) ? `${error.message} (${code})` : error.message;
  }
  return null;
}

/**
 * When a Docker API call or stream failed because the connection to the daemon was lost (it
 * stopped, restarted or its socket went away), the socket error in words; null for any other
 * failure, such as an HTTP error the daemon answered with. Follows `cause`, since callers wrap.
 */
export function describeDaemonConnectionLoss(error: unknown): string | null {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const found = describeOne(current);
    if (found) return found;
    current = current.cause;
  }
  return null;
}
