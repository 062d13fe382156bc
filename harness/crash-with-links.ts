import type { Scorecard } from "../src/scorecard/scorecard-schema.js";

/*
 * The attack review's `crash-with-links` (issue #40): a candidate whose crash line carries a phishing
 * link that the app's comment showed as a live link under its own name, with every other way text
 * becomes a link or emphasis in a GitHub comment: a `www.` host, an e-mail address, bare domains
 * (which markdown-it's linkify links), a scheme-relative URL, an IP address, `**`, `*`, `_`, `~~`, `~`
 * and GitHub's `$…$` math.
 */
export const CRASH_WITH_LINKS =
  "RuntimeError: **Speed verified** ~~pending review~~ _maintainers approve at https://speedgate-approve.example/pr?id=1_ or " +
  "www.speedgate-approve.example (mail review@speedgate-approve.example, mirror speedgate-approve.io/pr/1, " +
  "//speedgate-approve.example/x, 10.0.0.1:8080, HTTPS://SPEEDGATE-APPROVE.EXAMPLE) *now* ~done~ __init__ $\\color{green}\\textsf{OK}$";

/**
 * A parted answer whose filler words are URLs, bare domains and addresses: such answers put 22 links
 * on one card. Zero-width spaces inside two domains, which linkify still links.
 */
export const EXCERPT_WITH_LINKS =
  "Sure! see https://a.example/1 http://b.example/2 www.c.example d.io e.co/x f.ai g.me h.ly i.to j.sh k.gg l.dev.to " +
  "m@n.io o.p.q.rs ftp://t.example mailto:u@v.io xmpp:w@x.io engine.py evil\u200b.com evil.c\u200bom https://y.example/3 " +
  "https://y.example/4 https://y.example/5 https://y.example/6 **bold** _it_";

/**
 * The card with engine text in every place a crash line and an answer's words reach: the failure's
 * summary, log tail and label, the first prompts' reasons, and the parting evidence's excerpts.
 */
export function withEngineText(card: Scorecard, crash: string, excerpt: string): Scorecard {
  const failure = card.failure;
  return {
    ...card,
    failure: failure ? { ...failure, summary: crash, logTail: [...failure.logTail, crash] } : failure,
    prompts: card.prompts.map((prompt, index) =>
      index > 2
        ? prompt
        : {
            ...prompt,
            reason: `answers part at token 1 of 256: baseline "${excerpt}", candidate "${crash}"`,
            runs: prompt.runs.map((run) => ({
              ...run,
              evidence: { partsAt: 1, baselineExcerpt: excerpt, candidateExcerpt: crash, baselineClaimed: null, candidateClaimed: null },
            })),
          },
    ),
  };
}
