/** System methods: ping, getLicense, getOpenSubsonicExtensions (no credentials needed), tokenInfo. */
import { defineGroup } from './registry.ts';

export const systemGroup = defineGroup('system', (api) => {
  api.extension('formPost', [1]);
  api.extension('apiKeyAuthentication', [1]);

  api.method('ping', () => undefined);

  // Tagsonic has no Subsonic licence to check: always valid, never expiring.
  api.method('getLicense', () => ({ license: { valid: true } }));

  api.publicMethod('getOpenSubsonicExtensions', ({ registry }) => ({
    openSubsonicExtensions: [...registry.extensions].map(([name, versions]) => ({ name, versions: [...versions] })),
  }));

  api.method('tokenInfo', ({ user }) => ({ tokenInfo: { username: user.username } }));
});
