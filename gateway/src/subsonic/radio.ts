/**
 * Internet radio: getInternetRadioStations (every user), create/update/deleteInternetRadioStation
 * (administrators). Stations are only links: clients play the stream themselves.
 */
import { notAuthorized } from './errors.ts';
import type { InternetRadioStationBody } from './model.ts';
import type { Params } from './params.ts';
import { RadioStations, type RadioStationDoc, type RadioStationInput } from './radio-store.ts';
import { defineGroup, type SubsonicCall } from './registry.ts';

export const radioBody = (doc: RadioStationDoc): InternetRadioStationBody => ({
  id: doc._id,
  name: doc.name,
  streamUrl: doc.streamUrl,
  ...(doc.homePageUrl ? { homePageUrl: doc.homePageUrl } : {}),
});

/** Subsonic spells the parameter `homepageUrl` and the answer's field `homePageUrl`. */
const input = (params: Params): RadioStationInput => ({
  name: params.required('name'),
  streamUrl: params.required('streamUrl'),
  homePageUrl: params.str('homepageUrl') ?? '',
});

const adminOnly = ({ user }: SubsonicCall) => {
  if (!user.isAdmin) throw notAuthorized('manage internet radio stations (administrators only)');
};

export const radioGroup = defineGroup('radio', async (api, ctx) => {
  const stations = new RadioStations(ctx.store);
  await stations.init();

  api.method('getInternetRadioStations', async () => ({
    internetRadioStations: { internetRadioStation: (await stations.list()).map(radioBody) },
  }));

  api.method('createInternetRadioStation', async (call) => {
    adminOnly(call);
    await stations.create(input(call.params));
  });

  api.method('updateInternetRadioStation', async (call) => {
    adminOnly(call);
    const id = call.params.required('id');
    await stations.update(id, input(call.params));
  });

  api.method('deleteInternetRadioStation', async (call) => {
    adminOnly(call);
    await stations.delete(call.params.required('id'));
  });
});
