import { type IncomingMessage, type Server, type ServerResponse, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { type MatchedOperation, validateRequest } from "./openapi-description.js";

/*
 * A local stand-in for GitHub's REST API. Every request is checked against the published description
 * and must also be one the test registered; anything else is answered with an error and recorded as a
 * violation, which the test asserts is empty. Comments and check runs are kept as state so that
 * duplicates can be counted.
 */

export interface FakeRequest {
  method: string;
  template: string;
  path: string;
  pathParams: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  headers: IncomingMessage["headers"];
}

export interface FakeResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type FakeHandler = (request: FakeRequest) => FakeResponse | Promise<FakeResponse>;

/** A GraphQL request as @octokit/graphql sends it to GitHub Enterprise's /api/graphql. */
export interface FakeGraphqlRequest {
  query: string;
  variables: Record<string, unknown>;
}

export type FakeGraphqlHandler = (request: FakeGraphqlRequest) => FakeResponse;

/** A page outside the API (`npm run try-app`'s pull request in a browser): null for a path it does not serve. */
export type FakePageHandler = (request: { method: string; url: URL; body: string }) => FakeResponse | null | Promise<FakeResponse | null>;

export interface RecordedRequest {
  method: string;
  template: string | null;
  path: string;
  body: unknown;
}

export interface FakeComment {
  id: number;
  issueNumber: number;
  body: string;
  login: string;
  type: "Bot" | "User";
  createdAt: string;
}

export interface FakeCheckRun {
  id: number;
  name: string;
  headSha: string;
  status: string;
  conclusion: string | null;
  title: string | null;
  summary: string | null;
  /** output.text: what the app says under the card (the required check's source). */
  text?: string | null;
  externalId: string | null;
  detailsUrl: string | null;
  appId: number;
}

export const API_PREFIX = "/api/v3";
/** Where Octokit sends GraphQL when its REST base URL ends in /api/v3. */
const GRAPHQL_PATH = "/api/graphql";
const BLOB_PREFIX = "/_blobs/";
/** GitHub's web pages an app's OAuth web flow uses (not the REST API, so not in its description). */
const OAUTH_PREFIX = "/login/oauth/";

/** A request to one of GitHub's web pages (the OAuth flow): its form or JSON body, read as key-value pairs. */
export interface FakeWebRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  form: URLSearchParams;
  headers: IncomingMessage["headers"];
}

export type FakeWebHandler = (request: FakeWebRequest) => FakeResponse;

export class FakeGitHub {
  readonly violations: string[] = [];
  readonly requests: RecordedRequest[] = [];
  readonly comments: FakeComment[] = [];
  readonly checkRuns: FakeCheckRun[] = [];
  readonly blobs = new Map<string, Uint8Array>();
  readonly #routes = new Map<string, FakeHandler>();
  readonly #web = new Map<string, FakeWebHandler>();
  #graphql: FakeGraphqlHandler | null = null;
  #pages: FakePageHandler | null = null;
  readonly #watchers = new Set<() => void>();
  #server: Server | null = null;
  #nextId = 1000;
  #clock = Date.parse("2026-01-01T00:00:00Z");
  url = "";

  /** The host:port for GHE_HOST. */
  get host(): string {
    return this.url.replace(/^http:\/\//, "");
  }

  get apiUrl(): string {
    return `${this.url}${API_PREFIX}`;
  }

  /** Forgets routes, requests, violations and state between tests that share one app process. */
  reset(): void {
    this.violations.length = 0;
    this.requests.length = 0;
    this.comments.length = 0;
    this.checkRuns.length = 0;
    this.blobs.clear();
    this.#routes.clear();
    this.#web.clear();
    this.#graphql = null;
  }

  nextId(): number {
    return this.#nextId++;
  }

  /** Distinct, increasing timestamps, so the order of comments is the order they were written. */
  now(): string {
    this.#clock += 1000;
    return new Date(this.#clock).toISOString();
  }

  /** Resolves once `predicate` holds, checked now and after every request the fake answers. */
  async waitUntil(predicate: () => boolean): Promise<void> {
    await new Promise<void>((resolve) => {
      const check = (): void => {
        if (!predicate()) return;
        this.#watchers.delete(check);
        resolve();
      };
      this.#watchers.add(check);
      check();
    });
  }

  /** Registers an expected route; `template` is the description's path, such as /repos/{owner}/{repo}/pulls. */
  on(method: string, template: string, handler: FakeHandler): this {
    this.#routes.set(`${method.toUpperCase()} ${template}`, handler);
    return this;
  }

  /** Serves one of GitHub's web pages of the OAuth flow (/login/oauth/authorize, /login/oauth/access_token). */
  onWeb(method: string, path: string, handler: FakeWebHandler): this {
    this.#web.set(`${method.toUpperCase()} ${path}`, handler);
    return this;
  }

  /** Serves GraphQL (no description to check it against: the handler reads the operation it expects). */
  onGraphql(handler: FakeGraphqlHandler): this {
    this.#graphql = handler;
    return this;
  }

  /** Serves pages outside the API, for a person's browser (never the app's requests, which all go to the API). */
  onPage(handler: FakePageHandler): this {
    this.#pages = handler;
    return this;
  }

  /** Requests the app made to a route (by description template), for assertions. */
  calls(method: string, template: string): RecordedRequest[] {
    return this.requests.filter((request) => request.method === method && request.template === template);
  }

  async start(): Promise<void> {
    this.#server = createServer((request, response) => {
      this.#handle(request, response)
        .catch((error: unknown) => {
          this.violations.push(`fake failed: ${(error as Error).stack ?? String(error)}`);
          if (!response.headersSent) response.writeHead(500);
          response.end();
        })
        .finally(() => {
          for (const check of this.#watchers) check();
        });
    });
    await new Promise<void>((resolve) => this.#server?.listen(0, "127.0.0.1", resolve));
    const address = this.#server.address() as AddressInfo;
    this.url = `http://127.0.0.1:${address.port}`;
  }

  async stop(): Promise<void> {
    const server = this.#server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    this.#server = null;
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", this.url);
    const method = request.method ?? "GET";
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    if (url.pathname.startsWith(BLOB_PREFIX)) {
      const blob = this.blobs.get(url.pathname.slice(BLOB_PREFIX.length));
      this.requests.push({ method, template: null, path: url.pathname, body: undefined });
      if (method !== "GET" || !blob) {
        this.violations.push(`unexpected blob request: ${method} ${url.pathname}`);
        response.writeHead(404).end();
        return;
      }
      response.writeHead(200, { "content-type": "application/zip", "content-length": String(blob.byteLength) });
      response.end(blob);
      return;
    }
    if (url.pathname.startsWith(OAUTH_PREFIX)) {
      this.requests.push({ method, template: null, path: url.pathname, body: raw === "" ? undefined : raw });
      const handler = this.#web.get(`${method} ${url.pathname}`);
      if (!handler) {
        this.#refuse(response, 404, `web request the test did not expect: ${method} ${url.pathname}`, method, url.pathname, raw);
        return;
      }
      // GitHub takes the code exchange as a form or as JSON; either is read as key-value pairs.
      let form = new URLSearchParams(raw);
      if (raw.trimStart().startsWith("{")) {
        try {
          form = new URLSearchParams(Object.entries(JSON.parse(raw) as Record<string, string>));
        } catch {
          this.#refuse(response, 400, `${method} ${url.pathname}: body is not JSON`, method, url.pathname, raw);
          return;
        }
      }
      this.#send(response, handler({ method, path: url.pathname, query: url.searchParams, form, headers: request.headers }));
      return;
    }
    if (url.pathname === GRAPHQL_PATH) {
      this.#handleGraphql(method, raw, response);
      return;
    }
    if (!url.pathname.startsWith(API_PREFIX) && this.#pages) {
      const page = await this.#pages({ method, url, body: raw });
      if (page) {
        this.#send(response, page);
        return;
      }
    }
    if (!url.pathname.startsWith(API_PREFIX)) {
      this.#refuse(response, 404, `not under ${API_PREFIX}: ${method} ${url.pathname}`, method, url.pathname, undefined);
      return;
    }
    const path = url.pathname.slice(API_PREFIX.length) || "/";
    let body: unknown;
    if (raw !== "") {
      try {
        body = JSON.parse(raw);
      } catch {
        this.#refuse(response, 400, `${method} ${path}: body is not JSON`, method, path, raw);
        return;
      }
    }
    const checked = validateRequest(method, path, url.searchParams, body);
    if (!checked.ok) {
      this.#refuse(response, 422, checked.problem, method, path, body);
      return;
    }
    const operation: MatchedOperation = checked.operation;
    this.requests.push({ method, template: operation.template, path, body });
    const handler = this.#routes.get(`${method} ${operation.template}`);
    if (!handler) {
      this.violations.push(`request the test did not expect: ${method} ${operation.template} (${path})`);
      this.#send(response, { status: 404, body: { message: "Not Found (unexpected by the test)" } });
      return;
    }
    const result = await handler({
      method,
      template: operation.template,
      path,
      pathParams: operation.pathParams,
      query: url.searchParams,
      body,
      headers: request.headers,
    });
    this.#send(response, result);
  }

  #handleGraphql(method: string, raw: string, response: ServerResponse): void {
    let request: FakeGraphqlRequest | null = null;
    try {
      const parsed = JSON.parse(raw) as { query?: unknown; variables?: unknown };
      if (typeof parsed.query === "string")
        request = { query: parsed.query, variables: (parsed.variables ?? {}) as Record<string, unknown> };
    } catch {
      request = null;
    }
    if (method !== "POST" || !request || !this.#graphql) {
      this.#refuse(response, 400, `unexpected GraphQL request: ${method} ${raw.slice(0, 200)}`, method, GRAPHQL_PATH, raw);
      return;
    }
    this.requests.push({ method, template: GRAPHQL_PATH, path: GRAPHQL_PATH, body: request });
    this.#send(response, this.#graphql(request));
  }

  #refuse(response: ServerResponse, status: number, problem: string, method: string, path: string, body: unknown): void {
    this.requests.push({ method, template: null, path, body });
    this.violations.push(problem);
    this.#send(response, { status, body: { message: problem } });
  }

  #send(response: ServerResponse, result: FakeResponse): void {
    const headers: Record<string, string> = { ...result.headers };
    let payload: string | Uint8Array = "";
    if (typeof result.body === "string") {
      payload = result.body;
      headers["content-type"] ??= "text/plain; charset=utf-8";
    } else if (result.body instanceof Uint8Array) {
      payload = result.body;
    } else if (result.body !== undefined) {
      payload = JSON.stringify(result.body);
      headers["content-type"] ??= "application/json; charset=utf-8";
    }
    response.writeHead(result.status, headers);
    response.end(payload);
  }
}
