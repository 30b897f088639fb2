export { isRefusedAddress } from './address-policy.ts';
export * from './errors.ts';
export { grantFor, normalizeHost, type HostGrant } from './grants.ts';
export {
  ANY_PUBLIC_HOST,
  createPluginHttp,
  MIN_REQUEST_MS,
  type PluginFetchContext,
  type PluginFetchOptions,
  type PluginFetchRequest,
  type PluginFetchResult,
  type PluginHttp,
  type PluginHttpLimits,
  type PluginHttpOptions,
  type ResolveHost,
} from './plugin-http.ts';
export { createRateLimiter, describeRate, systemClock, type Clock, type RateLimiter, type TakeResult } from './rate-limit.ts';
export { sourceUrlOverride, sourceUrlVariable } from './source-url.ts';
