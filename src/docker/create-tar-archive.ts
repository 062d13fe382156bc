/** One regular file of a generated build context. */
export interface TarEntry {
  name: string;
  content: Buffer;
  mode?: number;
}

const BLOCK = 512;

function writeOctal(header: Buffer, value: number, offset: number, length: number): void {
  header.write(`${value.toString(8).padStart(length - 1, "0")}\0`, offset, length, "ascii");
}

/**
 * A ustar archive held in memory. The overlay build context is a handful of small files (a
 * Dockerfile, the patch, the apply script), so it never touches the disk and leaves nothing behind.
 */
export function createTarArchive(entries: TarEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    if (Buffer.byteLength(entry.name) > 99) throw new Error(`tar entry name too long: ${entry.name}`);
    const header = Buffer.alloc(BLOCK, 0);
    header.write(entry.name, 0, 100, "utf8");
    writeOctal(header, entry.mode ?? 0o644, 100, 8);
    writeOctal(header, 0, 108, 8);
    writeOctal(header, 0, 116, 8);
    writeOctal(header, entry.content.length, 124, 12);
    writeOctal(header, 0, 136, 12);
    header.write("        ", 148, 8, "ascii");
    header.write("0", 156, 1, "ascii");
    header.write("ustar\0", 257, 6, "ascii");
    header.write("00", 263, 2, "ascii");
    let checksum = 0;
    for (const byte of header) checksum += byte;
    header.write(`${checksum.toString(8).padStart(6, "0")}\0 `, 148, 8, "ascii");
    parts.push(header, entry.content);
    const padding = (BLOCK - (entry.content.length % BLOCK)) % BLOCK;
    if (padding > 0) parts.push(Buffer.alloc(padding, 0));
  }
  parts.push(Buffer.alloc(BLOCK * 2, 0));
  return Buffer.concat(parts);
}
