/** Library scanning: getScanStatus, startScan (administrators only, like the reference servers). */
import type { ScanStatus } from '@tagsonic/core/library';
import { notAuthorized } from './errors.ts';
import type { ScanStatusBody } from './model.ts';
import { defineGroup } from './registry.ts';

const body = (s: ScanStatus): ScanStatusBody => ({
  scanning: s.scanning,
  count: s.count,
  ...(s.lastScan ? { lastScan: s.lastScan } : {}),
});

export const scanGroup = defineGroup('scan', (api, ctx) => {
  api.method('getScanStatus', async () => ({ scanStatus: body(await ctx.library.scans.scanStatus()) }));

  api.method('startScan', async ({ user, params }) => {
    if (!user.isAdmin) throw notAuthorized('start a library scan (administrators only)');
    await ctx.library.scans.startScan({ full: params.bool('fullScan', false), actor: user.username });
    // A queued task counts as scanning (no file handled yet) so clients start polling getScanStatus.
    const status = await ctx.library.scans.scanStatus();
    return { scanStatus: body(status.scanning ? status : { ...status, scanning: true, count: 0 }) };
  });
});
