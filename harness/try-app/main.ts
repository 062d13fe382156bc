import { once } from "node:events";
import { startTryApp } from "./start-try-app.js";

/*
 * `npm run try-app`: see what the app does to a pull request before registering anything. Prints the pull request's
 * page; Ctrl-C stops the app and the fake. TRY_APP_PORT sets the app's own port (a free one by default).
 */
const started = performance.now();
process.stdout.write("speedgate try-app: starting the app (npm run bot) against a local GitHub fake…\n");
const tryApp = await startTryApp(process.env.TRY_APP_PORT ? { port: Number(process.env.TRY_APP_PORT) } : {});
process.stdout.write(
  `speedgate try-app: ready in ${((performance.now() - started) / 1000).toFixed(1)} s. Open the pull request:\n\n  ${tryApp.pageUrl}\n\n` +
    "It shows the card the app posted and its speedgate check; comment /rescore there to score it again. Ctrl-C stops.\n",
);
await Promise.race([once(process, "SIGINT"), once(process, "SIGTERM")]);
process.stdout.write("speedgate try-app: stopping\n");
await tryApp.stop();
