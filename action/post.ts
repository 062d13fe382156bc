import { cleanUp } from "./cleanup.js";

await cleanUp();
