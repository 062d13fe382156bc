/**
 * Puts "The whole card: <its page>" under the card's headline when the app serves pages: the comment
 * folds and cuts a card to GitHub's limits, the page shows all of it. The card is unchanged without one.
 */
export function addCardLink(markdown: string, cardUrl: string | null): string {
  if (cardUrl === null) return markdown;
  const link = `📄 [The whole card](${cardUrl}), every prompt and run included`;
  const lines = markdown.split("\n");
  const headline = lines.findIndex((line) => line.startsWith("## "));
  if (headline < 0) return `${link}\n\n${markdown}`;
  lines.splice(headline + 1, 0, "", link);
  return lines.join("\n");
}
