import { invalid } from '../errors/index.ts';
import { errorMessage } from './codec.ts';
import type { CommandHandler, ConsumeOptions, DeadLetter, Delivery } from './port.ts';

/**
 * What a driver hands the shared handler wrapper for one delivery: the raw queue operations, without any
 * policy. The policy (auto-ack, back-off, dead-lettering) lives in `runCommand` so both drivers agree on it.
 */
export interface DeliveryControl<T = unknown> {
  readonly subject: string;
  readonly msgId: string;
  readonly payload: T;
  readonly deliveryCount: number;
  ack(): Promise<void>;
  nak(delayMs: number): Promise<void>;
  working(): Promise<void>;
  /**
   * Takes the message out of the queue for good. Resolves true only for the caller that actually removed it,
   * so exactly one party (this handler, or the driver's timeout path) reports the dead letter.
   */
  terminate(): Promise<boolean>;
  /** True once the ack wait has run out: from then on the driver's redelivery/timeout path owns the message. */
  expired(): boolean;
}

/** Where the bus reports failures that have no caller to throw to (a throwing subscriber, a lost ack). */
export type BusErrorReporter = (error: unknown, context: string) => void;

export const reportToStderr: BusErrorReporter = (error, context) => {
  console.error(`[tagsonic bus] ${context}: ${errorMessage(error)}`);
};

const RETRY_BASE_MS = 100;
const RETRY_CAP_MS = 5_000;

/** 100 ms, 200 ms, 400 ms, … capped at 5 s: quick retries for blips, without hammering a broken dependency. */
export function defaultRetryDelay(deliveryCount: number): number {
  return Math.min(RETRY_CAP_MS, RETRY_BASE_MS * 2 ** Math.max(0, deliveryCount - 1));
}

export function assertConsumeOptions(options: ConsumeOptions): void {
  const { durable, concurrency, ackWaitMs, maxDeliver } = options;
  if (typeof durable !== 'string' || !/^[A-Za-z0-9_-]+$/.test(durable)) {
    throw invalid('TAGSONIC_ERR_BUS_OPTIONS_INVALID', `Durable consumer name "${String(durable)}" must use only letters, digits, "-" and "_".`);
  }
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw invalid('TAGSONIC_ERR_BUS_OPTIONS_INVALID', `concurrency must be a positive integer, got ${String(concurrency)}.`);
  }
  if (!Number.isFinite(ackWaitMs) || ackWaitMs < 1) {
    throw invalid('TAGSONIC_ERR_BUS_OPTIONS_INVALID', `ackWaitMs must be a positive number of milliseconds, got ${String(ackWaitMs)}.`);
  }
  if (!Number.isInteger(maxDeliver) || maxDeliver < 1) {
    throw invalid('TAGSONIC_ERR_BUS_OPTIONS_INVALID', `maxDeliver must be a positive integer, got ${String(maxDeliver)}.`);
  }
}

/** Calls `onDeadLetter`; a failing callback must not take the consumer down with it. */
export async function reportDeadLetter(options: ConsumeOptions, letter: DeadLetter, onError: BusErrorReporter): Promise<void> {
  if (!options.onDeadLetter) return;
  try {
    await options.onDeadLetter(letter);
  } catch (error) {
    onError(error, `onDeadLetter for ${letter.subject} (${letter.msgId})`);
  }
}

/**
 * Runs one delivery through a command handler with the port's contract: returning acks (unless the handler
 * settled it), throwing naks with back-off, and on the last allowed delivery dead-letters with the error;
 * `term()` dead-letters at once. When the ack wait ran out before the handler finished, the driver's
 * timeout path (redelivery, or the max-deliver dead letter) already owns the message, so nothing is done here.
 */
export async function runCommand<T>(
  control: DeliveryControl<T>,
  handler: CommandHandler<T>,
  options: ConsumeOptions,
  onError: BusErrorReporter,
): Promise<void> {
  let settled = false;
  const lastDelivery = control.deliveryCount >= options.maxDeliver;

  const deadLetter = async (reason: DeadLetter['reason'], error: string | undefined): Promise<void> => {
    if (!(await control.terminate())) return;
    const letter: DeadLetter = {
      subject: control.subject,
      msgId: control.msgId,
      payload: control.payload,
      deliveryCount: control.deliveryCount,
      reason,
      at: new Date(),
    };
    if (error !== undefined) letter.error = error;
    await reportDeadLetter(options, letter, onError);
  };

  const delivery: Delivery<T> = {
    subject: control.subject,
    msgId: control.msgId,
    payload: control.payload,
    deliveryCount: control.deliveryCount,
    async ack() {
      if (settled) return;
      settled = true;
      await control.ack();
    },
    async nak(delayMs?: number) {
      if (settled) return;
      settled = true;
      // A nak on the last allowed delivery can never be redelivered: say so now, with a reason, instead of
      // leaving the message to linger until the queue notices.
      if (lastDelivery) return deadLetter('max-deliver', 'handler asked for a retry on the last allowed delivery');
      await control.nak(Math.max(0, delayMs ?? 0));
    },
    async working() {
      if (settled) return;
      await control.working();
    },
    async term(reason?: string) {
      if (settled) return;
      settled = true;
      await deadLetter('term', reason);
    },
  };

  let failure: { error: unknown } | undefined;
  try {
    await handler(delivery);
  } catch (error) {
    failure = { error };
  }
  // Settling can fail too (connection lost): the message is then redelivered after the ack wait, which
  // idempotent handlers tolerate, so report it and carry on.
  try {
    await settleAfterHandler(failure);
  } catch (error) {
    onError(error, `settling ${control.subject} (${control.msgId}) after delivery ${control.deliveryCount}`);
  }

  async function settleAfterHandler(outcome: { error: unknown } | undefined): Promise<void> {
    if (outcome === undefined) {
      if (settled) return;
      settled = true;
      await control.ack();
      return;
    }
    if (settled) {
      onError(outcome.error, `handler for ${control.subject} (${control.msgId}) threw after settling its delivery`);
      return;
    }
    settled = true;
    if (control.expired()) return;
    if (lastDelivery) {
      await deadLetter('max-deliver', errorMessage(outcome.error));
      return;
    }
    const retryDelay = options.retryDelayMs ?? defaultRetryDelay;
    await control.nak(Math.max(0, retryDelay(control.deliveryCount)));
  }
}
