import { subscribe } from "node:diagnostics_channel";
import type { IncomingMessage } from "node:http";

/*
 * Probot's setup page (the app started without APP_ID) registers the app from app.yml with the
 * webhook URL `WEBHOOK_PROXY_URL`, else `<the address the page was opened at>/`: the root, which the
 * app answers with 404, where it serves webhooks on WEBHOOK_PATH (/api/github/webhooks). Probot
 * makes a smee.io channel only when smee-client can be imported, which a clone does not have. The
 * setup page reads WEBHOOK_PROXY_URL each time it is opened, so just before Probot answers
 * GET /probot this sets it to the page's own address with the webhook path, unless a channel (or
 * the user) set it already. Node's http.server.request.start channel runs before the server's
 * request listeners, and only in setup mode is this installed.
 */

const PAGE = "/probot";

/** The address the browser opened the page at, as Probot's own setup flow works it out. */
function pageOrigin(request: IncomingMessage): string {
  const forwardedProto = request.headers["x-forwarded-proto"];
  const encrypted = (request.socket as { encrypted?: boolean }).encrypted === true;
  const protocol = forwardedProto || encrypted ? "https" : "http";
  const forwardedHost = request.headers["x-forwarded-host"];
  const host = (Array.isArray(forwardedHost) ? forwardedHost[0] : forwardedHost) ?? request.headers.host ?? "localhost";
  return `${protocol}://${host.split(",")[0]?.trim() ?? host}`;
}

export function pointSetupAtWebhookPath(webhookPath: string, env: NodeJS.ProcessEnv = process.env): void {
  const ours = new Set<string>();
  subscribe("http.server.request.start", (message) => {
    const { request } = message as { request: IncomingMessage };
    if (request.method !== "GET" || request.url?.split("?")[0] !== PAGE) return;
    const current = env.WEBHOOK_PROXY_URL;
    if (current && !ours.has(current)) return;
    const url = `${pageOrigin(request)}${webhookPath}`;
    ours.add(url);
    env.WEBHOOK_PROXY_URL = url;
  });
}
