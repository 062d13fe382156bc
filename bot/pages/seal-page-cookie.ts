import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/*
 * The pages' cookies (the signed-in user and the OAuth state) are sealed with AES-256-GCM: a forged or
 * altered cookie does not open, so it reads as no cookie at all. Each holds its own expiry.
 */

/** Seals `value` (JSON) with `key`, to expire at `expiresAt` (ms since the epoch). */
export function sealPageCookie(key: Buffer, value: unknown, expiresAt: number): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const sealed = Buffer.concat([cipher.update(JSON.stringify({ value, expiresAt }), "utf8"), cipher.final()]);
  return Buffer.concat([iv, sealed, cipher.getAuthTag()]).toString("base64url");
}

/** What a sealed cookie holds, or null when it was not sealed with `key`, was altered, or has expired. */
export function openPageCookie(key: Buffer, cookie: string, now: number): unknown {
  const bytes = Buffer.from(cookie, "base64url");
  if (bytes.length < 12 + 16 + 2) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(bytes.length - 16));
    const text = Buffer.concat([decipher.update(bytes.subarray(12, bytes.length - 16)), decipher.final()]).toString("utf8");
    const parsed = JSON.parse(text) as { value?: unknown; expiresAt?: unknown };
    if (typeof parsed.expiresAt !== "number" || parsed.expiresAt <= now) return null;
    return parsed.value ?? null;
  } catch {
    return null;
  }
}

/** The cookies of a request, by name (the first of a name wins). */
export function readCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (header ?? "").split(";")) {
    const at = part.indexOf("=");
    if (at < 0) continue;
    const name = part.slice(0, at).trim();
    if (name && !cookies.has(name)) cookies.set(name, part.slice(at + 1).trim());
  }
  return cookies;
}
