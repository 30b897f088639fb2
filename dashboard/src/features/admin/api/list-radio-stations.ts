import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';
import type { AdminRadioStation } from './types.ts';

/** GET /apimt/admin/radio_stations/. */
export async function listRadioStations(): Promise<AdminRadioStation[]> {
  return (await apiCall<{ stations: AdminRadioStation[] }>('/apimt/admin/radio_stations/', { onError: { title: '查询失败！', timeout: SECONDS.five } })).data.stations;
}
