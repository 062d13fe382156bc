import { main } from "./main.js";
import { installSignalHandlers } from "./install-signal-handlers.js";

const signal = installSignalHandlers();
process.exitCode = await main(process.argv.slice(2), { signal });
