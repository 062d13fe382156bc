import { fileURLToPath } from "node:url";
import { checkImportLayers, describeLayerReport } from "./lib/import-layers.js";

// `npm run check:layers`: the dependency rule of docs/architecture.md, also run by the test suite.
const root = fileURLToPath(new URL("..", import.meta.url));
const report = checkImportLayers(root);
console.log(describeLayerReport(report));
process.exitCode = report.violations.length + report.circles.length === 0 ? 0 : 1;
