import { homedir } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { workerEnv } from './compile-cache.ts';

const saved = process.env.NODE_COMPILE_CACHE;
afterEach(() => {
  if (saved === undefined) delete process.env.NODE_COMPILE_CACHE;
  else process.env.NODE_COMPILE_CACHE = saved;
});

describe('workerEnv', () => {
  it('turns the compile cache on under the home folder, keeping the rest of the environment', () => {
    delete process.env.NODE_COMPILE_CACHE;
    const env = workerEnv();
    expect(env.NODE_COMPILE_CACHE).toBe(`${homedir()}/.cache/tagsonic/node-compile-cache`);
    expect(env.PATH).toBe(process.env.PATH);
    expect(process.env.NODE_COMPILE_CACHE).toBeUndefined();
  });

  it('leaves a choice made by the operator alone (another folder, or "" to turn it off)', () => {
    for (const chosen of ['/srv/cache', '']) {
      process.env.NODE_COMPILE_CACHE = chosen;
      expect(workerEnv().NODE_COMPILE_CACHE).toBe(chosen);
    }
  });
});
