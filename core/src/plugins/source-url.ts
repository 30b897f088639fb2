/**
 * The environment variable that overrides a source's base URL (a self-hosted mirror) for a whole deployment:
 * `TAGSONIC_SOURCE_URL_<ID>`, the id upper-cased with anything but A–Z and 0–9 as `_`. The guarded http's own
 * rule (../net/source-url.ts), re-exported here so the gateway can show which one is in force.
 */
export { sourceUrlVariable } from '../net/source-url.ts';
