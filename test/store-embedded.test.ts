import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { openEmbeddedStore } from '@tagsonic/core/store';
import { storeConformance } from './contract/store-conformance.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'tagsonic-store-conf-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

storeConformance('embedded', () => openEmbeddedStore({ dir }));
