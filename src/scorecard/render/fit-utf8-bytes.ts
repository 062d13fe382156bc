/** GitHub counts a check run's summary and text in UTF-8 bytes: a line of CJK or tqdm blocks is three per character. */
export function utf8Length(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

/** The longest prefix of `text` within `maxBytes` UTF-8 bytes, never splitting a character or a surrogate pair. */
export function utf8Prefix(text: string, maxBytes: number): string {
  if (utf8Length(text) <= maxBytes) return text;
  let low = 0;
  let high = Math.min(text.length, maxBytes);
  while (low < high) {
    const mid = (low + high + 1) >>> 1;
    if (utf8Length(text.slice(0, mid)) <= maxBytes) low = mid;
    else high = mid - 1;
  }
  const code = text.charCodeAt(low - 1);
  // A high surrogate alone would be written as a replacement character (3 bytes): leave its pair out whole.
  return code >= 0xd800 && code <= 0xdbff ? text.slice(0, low - 1) : text.slice(0, low);
}

/** `text` cut to `maxBytes` with a note saying so, or as it was when it fits. */
export function fitUtf8(text: string, maxBytes: number, note: string): string {
  if (utf8Length(text) <= maxBytes) return text;
  return `${utf8Prefix(text, maxBytes - utf8Length(note))}${note}`;
}
