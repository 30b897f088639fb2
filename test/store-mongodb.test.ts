import { describe } from 'vitest';
import { newId } from '@tagsonic/core';
import { openMongoStore } from '@tagsonic/core/store';
import { storeConformance } from './contract/store-conformance.ts';

const url = process.env.TAGSONIC_MONGODB_URL;
// One throw-away database per run, so runs never see each other's documents.
const dbName = `tagsonic_conformance_${newId()}`;

describe.skipIf(!url)('MongoDB driver', () => {
  storeConformance('mongodb', () => openMongoStore({ url: url!, dbName }));
});
