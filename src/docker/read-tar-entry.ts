const BLOCK = 512;

export type TarEntryKind = "file" | "symlink" | "hardlink" | "directory" | "other";

export interface FirstTarEntry {
  name: string;
  kind: TarEntryKind;
  /** The link target of a symlink or hard link; "" otherwise. */
  linkName: string;
  content: Buffer;
}

function field(header: Buffer, offset: number, length: number): string {
  const raw = header.subarray(offset, offset + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? raw.length : end).toString("utf8");
}

function octal(header: Buffer, offset: number, length: number): number {
  const text = field(header, offset, length).trim();
  const value = text === "" ? 0 : Number.parseInt(text, 8);
  if (!Number.isFinite(value) || value < 0) throw new Error(`tar: unreadable size field ${JSON.stringify(text)}`);
  return value;
}

/** The records of a pax extended header ("<length> key=value\n" each). */
function paxRecords(body: Buffer): Map<string, string> {
  const records = new Map<string, string>();
  let position = 0;
  while (position < body.length) {
    const space = body.indexOf(0x20, position);
    if (space === -1) break;
    const length = Number.parseInt(body.subarray(position, space).toString("ascii"), 10);
    if (!Number.isFinite(length) || length <= 0) break;
    const record = body.subarray(space + 1, position + length - 1).toString("utf8");
    const equals = record.indexOf("=");
    if (equals > 0) records.set(record.slice(0, equals), record.slice(equals + 1));
    position += length;
  }
  return records;
}

const KINDS: Record<string, TarEntryKind> = {
  "0": "file",
  "\0": "file",
  "": "file",
  "7": "file",
  "2": "symlink",
  "1": "hardlink",
  "5": "directory",
};

/**
 * The first real entry of a tar archive (Docker's archive endpoint answers one path as a tar whose
 * first entry is that path), with pax and GNU long-name headers applied to it.
 */
export function readFirstTarEntry(archive: Buffer): FirstTarEntry {
  let position = 0;
  let longName: string | null = null;
  let longLink: string | null = null;
  let pax = new Map<string, string>();
  while (position + BLOCK <= archive.length) {
    const header = archive.subarray(position, position + BLOCK);
    if (header.every((byte) => byte === 0)) break;
    const size = octal(header, 124, 12);
    const type = String.fromCharCode(header[156] ?? 0);
    const bodyStart = position + BLOCK;
    const body = archive.subarray(bodyStart, bodyStart + size);
    if (body.length < size) throw new Error("tar: the archive ends inside an entry");
    position = bodyStart + Math.ceil(size / BLOCK) * BLOCK;
    if (type === "x") {
      pax = paxRecords(body);
      continue;
    }
    if (type === "g") continue;
    if (type === "L") {
      longName = body.toString("utf8").replace(/\0+$/, "");
      continue;
    }
    if (type === "K") {
      longLink = body.toString("utf8").replace(/\0+$/, "");
      continue;
    }
    const prefix = field(header, 345, 155);
    const shortName = field(header, 0, 100);
    return {
      name: pax.get("path") ?? longName ?? (prefix ? `${prefix}/${shortName}` : shortName),
      kind: KINDS[type] ?? "other",
      linkName: pax.get("linkpath") ?? longLink ?? field(header, 157, 100),
      content: Buffer.from(body),
    };
  }
  throw new Error("tar: the archive holds no entry");
}
