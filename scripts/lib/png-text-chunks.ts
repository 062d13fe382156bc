import { crc32 } from "node:zlib";

/*
 * Text a PNG carries about itself, in iTXt chunks (UTF-8, uncompressed): the screenshots of the
 * example cards record the hash of the Markdown they were taken from and what their first screen
 * showed, so a test can tell a stale picture from a current one without a browser.
 */

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

interface Chunk {
  type: string;
  data: Buffer;
}

function readChunks(png: Buffer): Chunk[] {
  if (png.length < SIGNATURE.length || !png.subarray(0, SIGNATURE.length).equals(SIGNATURE))
    throw new Error("not a PNG: the file does not start with the PNG signature");
  const chunks: Chunk[] = [];
  let offset = SIGNATURE.length;
  while (offset + 12 <= png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString("latin1", offset + 4, offset + 8);
    if (offset + 12 + length > png.length) throw new Error(`PNG chunk ${type} at byte ${offset} runs past the end of the file`);
    chunks.push({ type, data: png.subarray(offset + 8, offset + 8 + length) });
    offset += 12 + length;
    if (type === "IEND") break;
  }
  return chunks;
}

function encodeChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "latin1");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** The PNG with these entries as iTXt chunks before its end, replacing entries of the same keywords. */
export function writePngText(png: Buffer, entries: Record<string, string>): Buffer {
  const chunks = readChunks(png);
  const keys = new Set(Object.keys(entries));
  for (const key of keys) {
    if (!/^[\x20-\x7e]{1,79}$/.test(key))
      throw new Error(`PNG text keyword ${JSON.stringify(key)}: expected 1 to 79 printable Latin-1 characters`);
  }
  const kept = chunks.filter((chunk) => chunk.type !== "iTXt" || !keys.has(chunk.data.toString("latin1", 0, chunk.data.indexOf(0))));
  const end = kept.findIndex((chunk) => chunk.type === "IEND");
  if (end < 0) throw new Error("not a whole PNG: it has no IEND chunk");
  // keyword \0, compression flag 0, method 0, empty language tag \0, empty translated keyword \0, UTF-8 text.
  const added = Object.entries(entries).map(([key, text]) => ({
    type: "iTXt",
    data: Buffer.concat([Buffer.from(key, "latin1"), Buffer.from([0, 0, 0, 0, 0]), Buffer.from(text, "utf8")]),
  }));
  const ordered = [...kept.slice(0, end), ...added, ...kept.slice(end)];
  return Buffer.concat([SIGNATURE, ...ordered.map((chunk) => encodeChunk(chunk.type, chunk.data))]);
}

/** The uncompressed iTXt entries of a PNG, by keyword. */
export function readPngText(png: Buffer): Record<string, string> {
  const entries: Record<string, string> = {};
  for (const chunk of readChunks(png)) {
    if (chunk.type !== "iTXt") continue;
    const keyEnd = chunk.data.indexOf(0);
    if (keyEnd < 0 || chunk.data[keyEnd + 1] !== 0) continue;
    const languageEnd = chunk.data.indexOf(0, keyEnd + 3);
    const translatedEnd = languageEnd < 0 ? -1 : chunk.data.indexOf(0, languageEnd + 1);
    if (translatedEnd < 0) continue;
    entries[chunk.data.toString("latin1", 0, keyEnd)] = chunk.data.toString("utf8", translatedEnd + 1);
  }
  return entries;
}

/** Width and height from the PNG's header. */
export function readPngSize(png: Buffer): { width: number; height: number } {
  const header = readChunks(png)[0];
  if (header?.type !== "IHDR") throw new Error("not a PNG: its first chunk is not IHDR");
  return { width: header.data.readUInt32BE(0), height: header.data.readUInt32BE(4) };
}
