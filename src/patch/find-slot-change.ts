/*
 * Whether a pull request changes how many requests the engine serves at once: llama.cpp's --parallel (-np),
 * vLLM's --max-num-seqs, SGLang's --max-running-requests, as flags or as the settings they set. Such a change
 * drains a queue the baseline builds: that queue is its speedup, not noise, so a queue-bound card must not tell
 * it to lower the load to the baseline's slots.
 */

/** The flags, and the names the engines' sources give them. */
const SLOT_FLAG = /(?:^|[\s"'=[,(])(--parallel|-np|--max-num-seqs|--max-running-requests)(?=[\s"'=\]),]|$)/;
const SLOT_SETTING = /\b(n_parallel|max_num_seqs|max_running_requests)\b/;

function slotWord(line: string): string | null {
  return SLOT_FLAG.exec(line)?.[1] ?? SLOT_SETTING.exec(line)?.[1] ?? null;
}

/** A slot flag's value in a command: "-np 4", "--max-num-seqs=256"; null when the command does not set one. */
function slotArgument(command: readonly string[]): string | null {
  for (const [index, argument] of command.entries()) {
    const [flag, value] = argument.split("=", 2);
    if (flag === undefined || !SLOT_FLAG.test(` ${flag}`)) continue;
    return value !== undefined ? `${flag} ${value}` : `${flag} ${command[index + 1] ?? ""}`.trim();
  }
  return null;
}

export interface SlotChangeInput {
  /** The pull request's unified diff (a patch, or base to head); null when there is none here. */
  diff: string | null;
  baselineCommand?: readonly string[] | undefined;
  /** The candidate's own command, when the round config gives it one. */
  candidateCommand?: readonly string[] | undefined;
}

/** What changes the engine's parallel slots, in words ("`-np 1` → `-np 4` in candidate.command"); null when nothing does. */
export function findSlotChange(input: SlotChangeInput): string | null {
  if (input.candidateCommand && input.baselineCommand) {
    const before = slotArgument(input.baselineCommand);
    const after = slotArgument(input.candidateCommand);
    if (before !== after) return `${before ?? "the default"} → ${after ?? "the default"} in candidate.command`;
  }
  if (!input.diff) return null;
  let file: string | null = null;
  for (const line of input.diff.split("\n")) {
    if (line.startsWith("+++ ")) {
      file = line.slice(4).replace(/^b\//, "").trim();
      continue;
    }
    if (line.startsWith("--- ") || !(line.startsWith("+") || line.startsWith("-"))) continue;
    const word = slotWord(line.slice(1));
    if (word) return `${word} changed in ${file ?? "the patch"}`;
  }
  return null;
}

/** The baseline's parallel slots as its command sets them ("-np 4" → 4 slots); null when the command (or a script it runs) does not say. */
export interface EngineSlots {
  slots: number;
  /** The flag as written, for the card: "-np 4". */
  setting: string;
}

export function findEngineSlots(command: readonly string[] | undefined): EngineSlots | null {
  if (!command) return null;
  // The engines' argument parsers let a later flag override an earlier one: the last one written is the one served.
  const lastAt = command.findLastIndex((argument) => SLOT_FLAG.test(` ${argument.split("=", 1)[0] ?? ""}`));
  const setting = lastAt < 0 ? null : slotArgument(command.slice(lastAt));
  const value = setting?.split(" ").at(-1) ?? "";
  if (!setting || !/^\d+$/.test(value)) return null;
  const slots = Number(value);
  return slots > 0 ? { slots, setting } : null;
}
