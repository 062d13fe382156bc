import { FakeGitHub, type FakeHandler, type FakeResponse } from "../../../harness/fake-github/fake-github-server.js";

export interface InjectedFault {
  /** What GitHub answers instead. */
  response: FakeResponse;
  /**
   * True: GitHub did the work and then answered with the fault (a lost response); false: it
   * refused before doing anything.
   */
  afterEffect?: boolean;
}

/**
 * The local GitHub with faults queued per route: the next N requests to a route get the queued
 * answers (a 500, a secondary rate limit), then the route recovers. Every request is still checked
 * against the OpenAPI description by the fake underneath.
 */
export class FaultyFakeGitHub extends FakeGitHub {
  readonly #faults = new Map<string, InjectedFault[]>();
  /** Faults that were served, in order, so a test can check its fault really happened. */
  readonly served: string[] = [];
  #servedWaiters: Array<{ count: number; resolve: () => void }> = [];

  override on(method: string, template: string, handler: FakeHandler): this {
    const key = `${method.toUpperCase()} ${template}`;
    return super.on(method, template, async (request) => {
      const fault = this.#faults.get(key)?.shift();
      if (!fault) return await handler(request);
      if (fault.afterEffect) await handler(request);
      this.served.push(`${key} -> ${fault.response.status}`);
      this.#servedWaiters = this.#servedWaiters.filter((waiter) => {
        if (this.served.length < waiter.count) return true;
        waiter.resolve();
        return false;
      });
      return fault.response;
    });
  }

  /** Queues faults for the next requests to one route (by description template). */
  failNext(method: string, template: string, ...faults: InjectedFault[]): void {
    const key = `${method.toUpperCase()} ${template}`;
    this.#faults.set(key, [...(this.#faults.get(key) ?? []), ...faults]);
  }

  /** Resolves once `count` faults have been served in all. */
  async waitForServed(count: number): Promise<void> {
    if (this.served.length >= count) return;
    await new Promise<void>((resolve) => this.#servedWaiters.push({ count, resolve }));
  }

  override reset(): void {
    super.reset();
    this.#faults.clear();
    this.served.length = 0;
  }
}

export const SERVER_ERROR: InjectedFault = { response: { status: 500, body: { message: "Server Error" } } };

/** GitHub's secondary rate limit as documented: 403 (or 429) with retry-after and this message. */
export function secondaryRateLimit(status: 403 | 429, retryAfterS = 1): InjectedFault {
  return {
    response: {
      status,
      headers: { "retry-after": String(retryAfterS), "x-ratelimit-remaining": "4000" },
      body: {
        message: "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
        documentation_url: "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits",
      },
    },
  };
}
