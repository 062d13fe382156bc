const UNITS: Record<string, number> = { "": 1, b: 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4 };

/** "16g", "512m", "1.5g" as Docker's CLI reads them (binary units), in bytes. */
export function parseDockerSize(text: string): number {
  const match = /^(\d+(?:\.\d+)?)([bkmgt]?)$/i.exec(text.trim());
  const unit = UNITS[match?.[2]?.toLowerCase() ?? "x"];
  if (!match?.[1] || unit === undefined) throw new Error(`expected a size such as "16g", got ${JSON.stringify(text)}`);
  return Math.round(Number(match[1]) * unit);
}
