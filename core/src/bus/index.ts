export * from './port.ts';
export { subjectMatches, patternsOverlap, assertSubject, assertPattern, COMMAND_PREFIX, EVENT_PREFIX } from './subjects.ts';
export { encodePayload, decodePayload, errorMessage } from './codec.ts';
export {
  runCommand,
  defaultRetryDelay,
  assertConsumeOptions,
  reportDeadLetter,
  reportToStderr,
  type DeliveryControl,
  type BusErrorReporter,
} from './handler.ts';
export { RPC_PREFIX, RPC_SUBJECTS, DEFAULT_REQUEST_TIMEOUT_MS, type PluginInvokeRequest } from './rpc.ts';
export { createMemoryBus, type MemoryBusOptions } from './memory.ts';
export type { NatsBusOptions } from './nats.ts';
export { connectNatsBus, openBus, type BusConfig } from './open-bus.ts';
