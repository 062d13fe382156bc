import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getFreePort } from "../support/get-free-port.js";

/*
 * Issue #15, point 8: `npm run bot` without APP_ID serves Probot's setup flow, which registers the app
 * from app.yml. The manifest it offers GitHub must carry the webhook URL the flow chose, not a
 * placeholder from app.yml. Issue #23: without smee-client (a clone has none) Probot chose the page's
 * root, which the app answers with 404; the URL is the path the app serves webhooks on.
 */

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

describe("Probot's setup flow with app.yml", () => {
  let child: ChildProcess;
  let port = 0;
  beforeAll(async () => {
    port = await getFreePort();
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(port),
      HOST: "127.0.0.1",
      NODE_ENV: "test",
      LOG_FORMAT: "json",
    };
    child = spawn("npm", ["run", "--silent", "bot"], { cwd: ROOT, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    await new Promise<void>((resolve, reject) => {
      const onData = (chunk: Buffer): void => {
        output += chunk.toString("utf8");
        if (output.includes("Listening on http://")) resolve();
      };
      child.stdout?.on("data", onData);
      child.stderr?.on("data", onData);
      child.once("exit", (code) => reject(new Error(`the setup server exited (${code}):\n${output}`)));
    });
  });
  afterAll(async () => {
    if (child.pid === undefined || child.exitCode !== null) return;
    const exited = once(child, "exit");
    process.kill(-child.pid, "SIGTERM");
    await exited;
  });

  it("offers GitHub a manifest whose webhook URL is the flow's, with app.yml's events and permissions", async () => {
    const page = await (await fetch(`http://127.0.0.1:${port}/probot`)).text();
    // The setup page's "Register GitHub App" button posts the manifest as its value.
    const value = /name="manifest" id="manifest" value='([^']*)'/.exec(page);
    expect(value, page.slice(0, 2000)).not.toBeNull();
    const manifest = JSON.parse(
      (value?.[1] ?? "")
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'")
        .replace(/&amp;/g, "&"),
    ) as {
      hook_attributes: { url: string };
      default_events: string[];
      default_permissions: Record<string, string>;
      name: string;
    };
    expect(manifest.hook_attributes.url).toBe(`http://127.0.0.1:${port}/api/github/webhooks`);
    // Opened at another address (a proxy's), the page registers that one, as Probot's flow does.
    const proxied = await (
      await fetch(`http://127.0.0.1:${port}/probot`, {
        headers: { "x-forwarded-host": "speedgate.example.com", "x-forwarded-proto": "https" },
      })
    ).text();
    expect(proxied).toContain("https://speedgate.example.com/api/github/webhooks");
    expect(manifest.name).toBe("speedgate");
    expect(manifest.default_events).toEqual(["check_run", "issue_comment", "pull_request", "push", "workflow_run"]);
    expect(manifest.default_permissions.checks).toBe("write");
  });
});
