import { describeFailureEvent } from "../scorecard/render/describe-card.js";
import type { RoundProgressEvent } from "../round/round-progress.js";

export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

const BAR_WIDTH = 24;

function bar(done: number, total: number): string {
  const filled = total === 0 ? BAR_WIDTH : Math.round((done / total) * BAR_WIDTH);
  return `[${"█".repeat(filled)}${"░".repeat(BAR_WIDTH - filled)}]`;
}

/**
 * Turns round events into what a person watching sees on stderr: a redrawn bar on a terminal, plain
 * lines in a CI log (where carriage returns would pile up into one unreadable line).
 */
export function createProgressRenderer(stream: ProgressStream): { onProgress: (event: RoundProgressEvent) => void; finish: () => void } {
  const tty = stream.isTTY === true;
  let barShown = false;
  const lastPlainStep = new Map<string, number>();

  const clearBar = (): void => {
    if (barShown) stream.write("\r\u001b[K");
    barShown = false;
  };
  const line = (text: string): void => {
    clearBar();
    stream.write(`${text}\n`);
  };

  const onProgress = (event: RoundProgressEvent): void => {
    const who = "run" in event && event.run !== undefined ? `${event.role} (run ${event.run} of ${event.runs ?? event.run})` : event.role;
    switch (event.type) {
      case "preparing":
        line(event.role === "candidate" ? "candidate: preparing (patch and build steps)" : "baseline: preparing");
        return;
      case "starting":
        line(`${who}: starting engine`);
        return;
      case "healthy":
        line(`${who}: engine healthy after ${(event.afterMs / 1000).toFixed(1)} s`);
        return;
      case "benchmark": {
        const failed = event.failed > 0 ? ` (${event.failed} failed)` : "";
        // One engine start serves every scenario: the scenario tells its prompts from the next one's.
        const serving = event.scenario !== undefined ? `${who}, ${event.scenario}` : who;
        if (tty) {
          if (event.done === event.total) return line(`${serving}: ${event.done}/${event.total} prompts done${failed}`);
          const text = `${serving}: ${bar(event.done, event.total)} ${event.done}/${event.total} prompts${failed}`;
          // A pseudo-terminal may report 0 columns; never cut the bar to nothing.
          const width = stream.columns !== undefined && stream.columns > 20 ? stream.columns - 1 : 100;
          stream.write(`\r\u001b[K${text.slice(0, width)}`);
          barShown = true;
          return;
        }
        const step = Math.max(1, Math.ceil(event.total / 10));
        const reached = Math.floor(event.done / step);
        if (event.done === event.total || reached > (lastPlainStep.get(serving) ?? 0)) {
          lastPlainStep.set(serving, reached);
          line(`${serving}: ${event.done}/${event.total} prompts done${failed}`);
        }
        return;
      }
      case "quality": {
        // Not timed and seldom long: a line when it starts and one when it is done, on a terminal as in a log.
        const failed = event.failed > 0 ? ` (${event.failed} failed)` : "";
        if (event.done === 0) line(`${who}, quality set: asking ${event.total} questions`);
        else if (event.done === event.total) line(`${who}, quality set: ${event.done}/${event.total} questions answered${failed}`);
        return;
      }
      case "failed":
        line(`${describeFailureEvent(event.failure)} (${event.failure.label}): ${event.failure.summary}`);
        return;
      case "stopped":
        line(`${who}: engine stopped`);
        return;
      case "skipped":
        line(`${who}: skipped, ${event.reason}`);
        return;
    }
  };
  return {
    onProgress,
    finish: clearBar,
  };
}
