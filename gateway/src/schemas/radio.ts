import { Type } from 'typebox';
import { Envelope } from './common.ts';

/** An internet radio station as the admin backend lists it (managed through the Subsonic API). */
export const AdminRadioStation = Type.Object({
  id: Type.String(),
  name: Type.String(),
  stream_url: Type.String(),
  /** '' when the station has no home page. */
  home_page_url: Type.String(),
  created_at: Type.String(),
  updated_at: Type.String(),
});

export const RadioStationListResponse = Envelope(Type.Object({ stations: Type.Array(AdminRadioStation) }));
