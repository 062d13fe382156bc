/** Docker names allow [a-zA-Z0-9_.-]; image repositories and tags also want lowercase. */
export function dockerSafeName(text: string): string {
  const safe = text
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, "-")
    .replace(/^[.-]+/, "");
  return (safe || "run").slice(0, 100);
}
