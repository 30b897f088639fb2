import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { EndOfStreamError, fromBuffer, type ITokenizer } from 'strtok3';
import * as Token from 'token-types';
import { BlockFileTokenizer, MemoryTokenizer, openAsync, openForReader } from './file-tokenizer.ts';
import { tempDir } from './test-fixtures.ts';

let dir: string;
let remove: () => Promise<void>;
let file: string;
/** 300 KiB of a known pattern: byte i is (i * 7 + 3) & 0xff. */
const SIZE = 300 * 1024;
const byteAt = (i: number) => (i * 7 + 3) & 0xff;

beforeAll(async () => {
  ({ dir, remove } = await tempDir('tagsonic-tokenizer-'));
  file = path.join(dir, 'pattern.bin');
  await writeFile(file, Uint8Array.from({ length: SIZE }, (_, i) => byteAt(i)));
});
afterAll(() => remove());

const expected = (position: number, length: number) => Uint8Array.from({ length }, (_, i) => byteAt(position + i));

describe('BlockFileTokenizer tokens', () => {
  for (const opening of ['async', 'reader-thread'] as const) {
    it(`reads tokens with the right bytes, each its own (${opening})`, async () => {
      const tokenizer = new BlockFileTokenizer(await (opening === 'async' ? openAsync(file) : openForReader(file)), file);
      try {
        // Enough small tokens to use up several of the shared slabs, some across 64 KiB block edges.
        const tokens: Array<{ position: number; bytes: Uint8Array }> = [];
        for (let position = 0; position + 1000 < SIZE; position += 997) {
          const bytes = await tokenizer.readToken(new Token.Uint8ArrayType(1000), position);
          tokens.push({ position, bytes });
        }
        expect(tokenizer.position).toBe(tokens.at(-1)!.position + 1000);
        for (const t of tokens) expect(t.bytes).toEqual(expected(t.position, 1000));
        // No two tokens share bytes: writing into each one leaves every other one as read.
        for (const t of tokens) t.bytes.fill(0);
        const again = await tokenizer.peekToken(new Token.Uint8ArrayType(1000), tokens[3]!.position);
        expect(again).toEqual(expected(tokens[3]!.position, 1000));
        // Numbers through token-types' views, whatever the token's offset in its slab.
        expect(await tokenizer.peekToken(Token.UINT32_BE, 65_534)).toBe(Buffer.from(expected(65_534, 4)).readUInt32BE());
        expect(await tokenizer.readToken(Token.UINT16_LE, 9)).toBe(Buffer.from(expected(9, 2)).readUInt16LE());
        expect(tokenizer.position).toBe(11);
        // A long token takes strtok3's own way.
        const big = await tokenizer.readToken(new Token.Uint8ArrayType(5000), 100_000);
        expect(big).toEqual(expected(100_000, 5000));
      } finally {
        await tokenizer.close();
      }
    });
  }

  it('a parse after another one reads only its own file (blocks are reused)', async () => {
    // Many short files of different bytes, each read to its end after the one before was closed.
    for (let k = 0; k < 20; k++) {
      const size = 70_000 + k * 977; // two blocks, the second short
      const other = path.join(dir, `short-${k}.bin`);
      await writeFile(other, new Uint8Array(size).fill(k + 1));
      const tokenizer = new BlockFileTokenizer(await openForReader(other), other);
      try {
        const tail = new Uint8Array(4096);
        const got = await tokenizer.peekBuffer(tail, { position: size - 1000, mayBeLess: true });
        expect(got).toBe(1000);
        expect(tail.subarray(0, got).every((b) => b === k + 1)).toBe(true);
        expect(tail.subarray(got).every((b) => b === 0)).toBe(true);
        const head = await tokenizer.readToken(new Token.Uint8ArrayType(800), 0);
        expect(head.every((b) => b === k + 1)).toBe(true);
      } finally {
        await tokenizer.close();
      }
    }
  });

  it('keeps strtok3 errors: past the end, and a bad position', async () => {
    const tokenizer = new BlockFileTokenizer(await openAsync(file), file);
    try {
      await expect(tokenizer.readToken(Token.UINT32_BE, SIZE - 2)).rejects.toBeInstanceOf(EndOfStreamError);
      await expect(tokenizer.peekToken(new Token.Uint8ArrayType(10_000), SIZE - 10)).rejects.toBeInstanceOf(EndOfStreamError);
      expect(tokenizer.position).toBe(0);
      await expect(tokenizer.readToken(Token.UINT32_BE, -1)).rejects.toBeInstanceOf(RangeError);
      await tokenizer.peekToken(Token.UINT32_BE, 0); // the first block is in memory now
      await expect(tokenizer.readToken(Token.UINT32_BE, 1.5)).rejects.toBeInstanceOf(RangeError);
      await expect(tokenizer.readBuffer(new Uint8Array(4), { position: 2.5 })).rejects.toBeInstanceOf(RangeError);
    } finally {
      await tokenizer.close();
    }
  });
});

describe('token-types patch (patches/token-types+6.2.0.patch)', () => {
  // token-types made a new DataView for every value it read; the patch keeps the view of the last array.
  // Reading from several arrays in turn, views of one buffer at different offsets among them, must still
  // read each array's own bytes.
  it('reads each array through its own view', () => {
    const buffer = new ArrayBuffer(64);
    new Uint8Array(buffer).forEach((_, i, a) => (a[i] = i));
    const a = new Uint8Array(buffer, 0, 16);
    const b = new Uint8Array(buffer, 8, 16);
    const c = Uint8Array.of(0xde, 0xad, 0xbe, 0xef);
    for (let round = 0; round < 3; round++) {
      expect(Token.UINT32_BE.get(a, 0)).toBe(0x00010203);
      expect(Token.UINT32_BE.get(b, 0)).toBe(0x08090a0b);
      expect(Token.UINT32_BE.get(c, 0)).toBe(0xdeadbeef);
      expect(Token.UINT16_LE.get(b, 2)).toBe(0x0b0a);
    }
    Token.UINT32_BE.put(c, 0, 0x01020304);
    expect([...c]).toEqual([1, 2, 3, 4]);
    expect(Token.UINT32_BE.get(c, 0)).toBe(0x01020304);
  });
});

describe('MemoryTokenizer', () => {
  it('answers every read as BlockFileTokenizer does on the same bytes, and as strtok3 does', async () => {
    const data = Uint8Array.from({ length: 5000 }, (_, i) => byteAt(i));
    const same = path.join(dir, 'same.bin');
    await writeFile(same, data);
    const shortRead = (t: ITokenizer) => t.readBuffer(new Uint8Array(64), { position: 4980 });
    const steps: Array<(t: ITokenizer) => Promise<unknown>> = [
      (t) => t.readToken(Token.UINT32_BE),
      (t) => t.peekToken(Token.UINT16_LE, 4990),
      (t) => t.readToken(new Token.Uint8ArrayType(700), 100),
      (t) => t.readToken(new Token.Uint8ArrayType(3000), 1000), // longer than a slab token
      (t) => t.readBuffer(new Uint8Array(64), { position: 4980, mayBeLess: true }),
      (t) => t.peekBuffer(new Uint8Array(64), { position: 4980 }),
      (t) => t.readToken(Token.UINT32_BE, 4998),
      (t) => t.readBuffer(new Uint8Array(8), { position: 5000, mayBeLess: true }),
      (t) => t.readToken(Token.UINT32_BE, -1),
      (t) => t.ignore(10),
      (t) => t.readToken(Token.UINT8, 10),
      shortRead,
    ];
    const outcomes = async (t: ITokenizer) => {
      const out: unknown[] = [];
      for (const step of steps) {
        try {
          const v = await step(t);
          out.push(v instanceof Uint8Array ? [...v] : v);
        } catch (e) {
          out.push(`${(e as Error).name}`);
        }
        out.push(t.position);
      }
      return out;
    };
    const memory = await outcomes(new MemoryTokenizer(data, 'x.bin'));
    const file = new BlockFileTokenizer(await openAsync(same), same);
    try {
      expect(memory).toEqual(await outcomes(file));
    } finally {
      await file.close();
    }
    expect(memory).toContain('EndOfStreamError');
    expect(memory).toContain('RangeError');
    // strtok3's buffer tokenizer answers the same, except where a short read leaves the position: ours
    // move past what was read, like strtok3's file tokenizer.
    const strtok3 = await outcomes(fromBuffer(data));
    expect(memory.slice(0, -2)).toEqual(strtok3.slice(0, -2));
    expect(memory.slice(-2)).toEqual(['EndOfStreamError', 5000]);
    expect(strtok3.slice(-2)).toEqual(['EndOfStreamError', 11]);
  });
});
