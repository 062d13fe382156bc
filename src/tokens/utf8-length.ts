/** UTF-8 bytes of the code point that starts at `index` (a lone surrogate counts as the 3 bytes of U+FFFD). */
export function utf8BytesAt(text: string, index: number): { bytes: number; units: number } {
  const unit = text.charCodeAt(index);
  if (unit < 0x80) return { bytes: 1, units: 1 };
  if (unit < 0x800) return { bytes: 2, units: 1 };
  if (unit >= 0xd800 && unit <= 0xdbff && index + 1 < text.length) {
    const next = text.charCodeAt(index + 1);
    if (next >= 0xdc00 && next <= 0xdfff) return { bytes: 4, units: 2 };
  }
  return { bytes: 3, units: 1 };
}

/**
 * UTF-8 byte counts at the given UTF-16 offsets of `text` (non-decreasing), in one pass: what the
 * stream had delivered, in bytes, after each chunk.
 */
export function utf8LengthsAt(text: string, offsets: ArrayLike<number>): Float64Array {
  const out = new Float64Array(offsets.length);
  let position = 0;
  let bytes = 0;
  for (let index = 0; index < offsets.length; index++) {
    const target = Math.min(offsets[index] ?? 0, text.length);
    while (position < target) {
      const step = utf8BytesAt(text, position);
      bytes += step.bytes;
      position += step.units;
    }
    out[index] = bytes;
  }
  return out;
}
