/**
 * Internet radio stations (Subsonic getInternetRadioStations & co.): links to streams the clients play
 * themselves, shared by every user and managed by administrators. Stored in the `radio_stations`
 * collection. The server never fetches a station, so only the URL shape is checked: http or https, no
 * `javascript:`/`file:` links a web client would open.
 */
import { randomBytes } from 'node:crypto';
import { invalid, notFound } from '@tagsonic/core/errors';
import type { Collection, Store } from '@tagsonic/core/store';

export interface RadioStationDoc {
  /** `ra-` + 16 hex: never mistaken for a library or playlist id. */
  _id: string;
  name: string;
  streamUrl: string;
  /** '' when the station has no home page. */
  homePageUrl: string;
  createdAt: Date;
  updatedAt: Date;
  [key: string]: unknown;
}

export interface RadioStationInput {
  name: string;
  streamUrl: string;
  homePageUrl?: string;
}

const MAX_NAME = 200;
const MAX_URL = 2048;
const MAX_STATIONS = 1000;

export class RadioStations {
  private readonly stations: Collection<RadioStationDoc>;

  constructor(store: Store) {
    this.stations = store.collection<RadioStationDoc>('radio_stations');
  }

  async init(): Promise<void> {
    await this.stations.createIndexes([{ keys: { name: 1 } }]);
  }

  /** Every station, by name. */
  async list(): Promise<RadioStationDoc[]> {
    return this.stations.find({}, { sort: { name: 1, _id: 1 } });
  }

  async get(id: string): Promise<RadioStationDoc> {
    const doc = await this.stations.findOne({ _id: { $eq: String(id) } });
    if (!doc) throw notFound('TAGSONIC_ERR_RADIO_NOT_FOUND', `No internet radio station with id "${id}".`, { id });
    return doc;
  }

  async create(input: RadioStationInput): Promise<RadioStationDoc> {
    if ((await this.stations.countDocuments({})) >= MAX_STATIONS) {
      throw invalid('TAGSONIC_ERR_RADIO_TOO_MANY', `There can be at most ${MAX_STATIONS} internet radio stations.`);
    }
    const now = new Date();
    const doc: RadioStationDoc = { _id: `ra-${randomBytes(8).toString('hex')}`, ...checked(input), createdAt: now, updatedAt: now };
    await this.stations.insertOne(doc);
    return doc;
  }

  /** Replaces a station's name and URLs (an absent home page clears it, as Subsonic clients send the whole station). */
  async update(id: string, input: RadioStationInput): Promise<RadioStationDoc> {
    const doc = await this.get(id);
    const set = { ...checked(input), updatedAt: new Date() };
    await this.stations.updateOne({ _id: doc._id }, { $set: set });
    return { ...doc, ...set };
  }

  async delete(id: string): Promise<void> {
    const doc = await this.get(id);
    await this.stations.deleteOne({ _id: doc._id });
  }
}

function checked(input: RadioStationInput): Pick<RadioStationDoc, 'name' | 'streamUrl' | 'homePageUrl'> {
  const name = input.name.trim();
  if (!name) throw invalid('TAGSONIC_ERR_RADIO_NO_NAME', 'A radio station needs a name.', { param: 'name' });
  if (name.length > MAX_NAME || /[\u0000-\u001f\u007f]/.test(name)) {
    throw invalid('TAGSONIC_ERR_RADIO_BAD_NAME', `A radio station name is at most ${MAX_NAME} characters, without control characters.`, { param: 'name' });
  }
  const streamUrl = webUrl(input.streamUrl, 'streamUrl');
  if (!streamUrl) throw invalid('TAGSONIC_ERR_RADIO_NO_STREAM_URL', 'A radio station needs a streamUrl.', { param: 'streamUrl' });
  return { name, streamUrl, homePageUrl: webUrl(input.homePageUrl ?? '', 'homepageUrl') };
}

/** A trimmed absolute http(s) URL, '' for an empty one; anything else is refused naming the parameter. */
function webUrl(raw: string, param: string): string {
  const text = raw.trim();
  if (!text) return '';
  let url: URL | null = null;
  try {
    url = new URL(text);
  } catch {
    url = null;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname || text.length > MAX_URL) {
    throw invalid('TAGSONIC_ERR_RADIO_BAD_URL', `${param} must be an http:// or https:// address (at most ${MAX_URL} characters).`, { param });
  }
  return text;
}
