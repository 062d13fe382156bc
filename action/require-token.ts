import { ConfigError } from "../src/vocabulary/config-error.js";
import type { ActionSettings } from "./action-settings.js";
import { INPUTS } from "./input-helper.js";

export function requireToken(settings: ActionSettings, why: string): string {
  if (!settings.githubToken) throw new ConfigError(`input "${INPUTS.githubToken}": expected a token ${why}, got nothing`);
  return settings.githubToken;
}
