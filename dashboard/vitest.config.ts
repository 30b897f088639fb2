import path from 'node:path';
import { defineConfig } from 'vitest/config';
import base from '../vitest.config.ts';

/**
 * Runs only the dashboard's unit tests (`npx vitest run --config dashboard/vitest.config.ts`) until the
 * root config includes `dashboard/src/**\/*.test.{ts,tsx}`.
 */
export default defineConfig({ ...base, root: path.resolve(import.meta.dirname, '..'), test: { ...base.test, include: ['dashboard/src/**/*.test.{ts,tsx}'] } });
