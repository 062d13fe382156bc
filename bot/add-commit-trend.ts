/**
 * Puts the pull request's "Earlier commits: 1.05× → 1.12× → **1.18×**" line under the card's headline,
 * where a reviewer reads the verdict; the card is unchanged when there is no earlier commit.
 */
export function addCommitTrend(markdown: string, trend: string | null): string {
  if (trend === null) return markdown;
  const lines = markdown.split("\n");
  const headline = lines.findIndex((line) => line.startsWith("## "));
  if (headline < 0) return `${trend}\n\n${markdown}`;
  lines.splice(headline + 1, 0, "", trend);
  return lines.join("\n");
}
