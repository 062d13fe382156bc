#!/usr/bin/env node
import { createRequire as __speedgateCreateRequire } from 'node:module';
import { dirname as __speedgateDirname } from 'node:path';
import { fileURLToPath as __speedgateFileURLToPath } from 'node:url';
const require = __speedgateCreateRequire(import.meta.url);
const __filename = __speedgateFileURLToPath(import.meta.url);
const __dirname = __speedgateDirname(__filename);
import {
  DEFAULT_STALE_AFTER_MS,
  ROLE_RUN_BASELINE,
  isRunGone,
  sweepResources
} from "./chunk-HA5TGXAM.js";
import "./chunk-BY2EMTJO.js";
export {
  DEFAULT_STALE_AFTER_MS,
  ROLE_RUN_BASELINE,
  isRunGone,
  sweepResources
};
