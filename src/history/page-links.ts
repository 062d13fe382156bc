/*
 * Where the history pages link, for the two hosts that write them: the app serves them under one origin
 * (/repos/owner/repo, /cards/<id>, /static/…); `speedgate history --html DIR` writes files that link
 * each other relatively (repos/owner/repo/index.html, cards/<id>.html, static/…), so the folder can be
 * published anywhere (GitHub Pages) or opened from disk.
 */
export interface PageLinks {
  repository(repository: string): string;
  runners(repository: string): string;
  card(cardId: string): string;
  cardJson(cardId: string): string;
  asset(name: string): string;
}

/** The app's links, from the root of its origin. */
export const APP_PAGE_LINKS: PageLinks = {
  repository: (repository) => `/repos/${repository}`,
  runners: (repository) => `/repos/${repository}/runners`,
  card: (cardId) => `/cards/${cardId}`,
  cardJson: (cardId) => `/cards/${cardId}.json`,
  asset: (name) => `/static/${name}`,
};

/** The static site's links, relative to a page `depth` folders below the site's root. */
export function staticPageLinks(depth: number): PageLinks {
  const up = "../".repeat(depth);
  return {
    repository: (repository) => `${up}repos/${repository}/index.html`,
    runners: (repository) => `${up}repos/${repository}/runners.html`,
    card: (cardId) => `${up}cards/${cardId}.html`,
    cardJson: (cardId) => `${up}cards/${cardId}.json`,
    asset: (name) => `${up}static/${name}`,
  };
}
