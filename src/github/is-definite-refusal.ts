import { statusOf } from "./github-client.js";

/**
 * GitHub answered that it did not do the request (a 4xx other than a timeout or a rate limit): sending
 * it again cannot do it twice. A 5xx, a timeout or no answer at all may hide a request that was done.
 */
export function isDefiniteRefusal(error: unknown): boolean {
  const status = statusOf(error);
  return status !== null && status >= 400 && status < 500 && status !== 408 && status !== 429;
}
