export { createSandbox, type Sandbox, type SandboxOptions, type Capabilities, type CapabilityValue, type HostFunction, type HostCall, type InvokeBudget, type TaskBinding } from './sandbox.ts';
export { HTTP_BUSY, PluginError, PLUGIN_ERROR_CODES, pluginThrownCode, type InvocationErrorCode, type PluginErrorCode } from './errors.ts';
export type { PluginStats } from './stats.ts';
export type { JsonValue } from './json.ts';
