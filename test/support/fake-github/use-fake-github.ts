import { afterAll, afterEach, beforeAll, beforeEach, expect } from "vitest";
import { FakeGitHub } from "../../../harness/fake-github/fake-github-server.js";

export interface UseFakeGitHubOptions<F extends FakeGitHub> {
  /** The fake to run: a plain FakeGitHub unless given one (the fault-injecting one of test/faults/support, for one). */
  fake?: F;
  /**
   * Whether the fake forgets the last test's routes, requests and records before each test. Off for a file
   * whose tests share what its beforeAll served, or follow on from each other.
   */
  resetEachTest?: boolean;
  /**
   * Whether a test fails on any request the published description or the test did not allow. Off only for
   * the fake's own test, whose tests make violations on purpose and check them.
   */
  checkViolations?: boolean;
  /** Shown with the violations when a test fails on them: what else the test had running (the app's log). */
  explain?: () => string | undefined;
}

/**
 * One local GitHub for a test file or describe block: started before its tests and stopped after them
 * (after whatever the file started later, such as the app that talks to it: Vitest runs after-hooks in
 * reverse order), cleared before each test, and each test failing on any request the description or the
 * test did not allow.
 */
export function useFakeGitHub(options?: Omit<UseFakeGitHubOptions<FakeGitHub>, "fake">): FakeGitHub;
export function useFakeGitHub<F extends FakeGitHub>(options: UseFakeGitHubOptions<F> & { fake: F }): F;
export function useFakeGitHub(options: UseFakeGitHubOptions<FakeGitHub> = {}): FakeGitHub {
  const fake = options.fake ?? new FakeGitHub();
  beforeAll(async () => await fake.start());
  afterAll(async () => await fake.stop());
  if (options.resetEachTest !== false) beforeEach(() => fake.reset());
  if (options.checkViolations !== false) afterEach(() => expect(fake.violations, options.explain?.()).toEqual([]));
  return fake;
}
