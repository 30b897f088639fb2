/**
 * The environment variable that overrides a source's base URL (a self-hosted mirror) for a whole deployment:
 * `TAGSONIC_SOURCE_URL_<ID>`, the id upper-cased with anything but A–Z and 0–9 as `_`. The same rule as the
 * workers' guarded http (workers/src/plugin-http/source-url.ts), here so the gateway can show which one is in force.
 */
export const sourceUrlVariable = (id: string): string => `TAGSONIC_SOURCE_URL_${id.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
