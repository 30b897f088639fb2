import { describe, expect, it } from 'vitest';
import { commandLine } from './command-line.ts';

describe('commandLine', () => {
  it('names ./run in a checkout and what the installation sets elsewhere (the Docker image)', () => {
    expect(commandLine('passwd admin', {})).toBe('./run passwd admin');
    expect(commandLine('passwd admin', { TAGSONIC_COMMAND: 'docker compose run --rm gateway' })).toBe('docker compose run --rm gateway passwd admin');
    expect(commandLine('passwd admin', { TAGSONIC_COMMAND: '  ' })).toBe('./run passwd admin');
  });
});
