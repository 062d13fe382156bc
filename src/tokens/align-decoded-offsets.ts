const WHITESPACE = /\s/;

/**
 * Maps offsets in `decoded` (a tokenizer's decode of `text`) onto `text`. They are equal for
 * lossless tokenizers; others drop or add whitespace (WordPiece, Metaspace's prefix space) or fold
 * case, so the two are walked together: equal characters (ignoring case) advance both, whitespace
 * only one side has is skipped on that side, anything else advances both. The result is
 * non-decreasing and never past the end of `text`.
 */
export function alignDecodedOffsets(decoded: string, text: string, offsets: ArrayLike<number>): Uint32Array {
  const out = new Uint32Array(offsets.length);
  if (decoded === text) {
    for (let index = 0; index < offsets.length; index++) out[index] = Math.min(offsets[index] ?? 0, text.length);
    return out;
  }
  let d = 0;
  let t = 0;
  const advanceTo = (target: number): void => {
    while (d < target) {
      const dc = decoded[d] ?? "";
      const tc = text[t];
      if (tc === undefined) {
        d++;
        continue;
      }
      if (dc === tc || dc.toLowerCase() === tc.toLowerCase()) {
        d++;
        t++;
      } else if (WHITESPACE.test(dc)) d++;
      else if (WHITESPACE.test(tc)) t++;
      else {
        d++;
        t++;
      }
    }
  };
  for (let index = 0; index < offsets.length; index++) {
    advanceTo(Math.min(offsets[index] ?? 0, decoded.length));
    out[index] = Math.min(t, text.length);
  }
  // The last token ends where the text ends, whatever the alignment made of trailing whitespace.
  if (offsets.length > 0 && (offsets[offsets.length - 1] ?? 0) >= decoded.length) out[offsets.length - 1] = text.length;
  return out;
}
