import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createTarArchive } from "../../src/docker/create-tar-archive.js";
import { readFirstTarEntry } from "../../src/docker/read-tar-entry.js";

describe("readFirstTarEntry", () => {
  const dir = mkdtempSync(join(tmpdir(), "speedgate-tar-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const longName = `${"model-snapshot-".repeat(8)}tokenizer.json`;
  writeFileSync(join(dir, longName), '{"model":{}}');
  symlinkSync(`../blobs/${"b".repeat(120)}`, join(dir, "tokenizer.json"));
  const tar = (format: string, name: string): Buffer => execFileSync("tar", ["-C", dir, `--format=${format}`, "-cf", "-", name]);

  it("reads a regular file with its content", () => {
    const entry = readFirstTarEntry(createTarArchive([{ name: "tokenizer.json", content: Buffer.from("{}") }]));
    expect(entry).toMatchObject({ name: "tokenizer.json", kind: "file" });
    expect(entry.content.toString()).toBe("{}");
  });

  it.each(["gnu", "pax"])("applies %s long-name headers to the entry after them", (format) => {
    const entry = readFirstTarEntry(tar(format, longName));
    expect(entry).toMatchObject({ name: longName, kind: "file" });
    expect(entry.content.toString()).toBe('{"model":{}}');
  });

  it.each(["gnu", "pax"])("gives a symlink's long target (%s)", (format) => {
    expect(readFirstTarEntry(tar(format, "tokenizer.json"))).toMatchObject({ kind: "symlink", linkName: `../blobs/${"b".repeat(120)}` });
  });

  it("refuses an archive cut inside an entry, and one with no entry", () => {
    const whole = createTarArchive([{ name: "t.json", content: Buffer.alloc(2000, 1) }]);
    expect(() => readFirstTarEntry(whole.subarray(0, 1024))).toThrow("tar: the archive ends inside an entry");
    expect(() => readFirstTarEntry(Buffer.alloc(1024))).toThrow("tar: the archive holds no entry");
  });
});
