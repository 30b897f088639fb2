import { conflict, unavailable } from '../errors/index.ts';
import { decodePayload, encodePayload } from './codec.ts';
import {
  assertConsumeOptions,
  reportDeadLetter,
  reportToStderr,
  runCommand,
  type BusErrorReporter,
  type DeliveryControl,
} from './handler.ts';
import type {
  Bus,
  BusHealth,
  CommandHandler,
  ConsumeOptions,
  EventHandler,
  RequestHandler,
  RequestOptions,
  SendOptions,
  ServeOptions,
  SendResult,
  Subscription,
} from './port.ts';
import { answer, assertServeOptions, assertTimeout, DEFAULT_REQUEST_TIMEOUT_MS, Limiter, noResponder, requestTimeout, RPC_PREFIX, settle } from './rpc.ts';
import { assertPattern, assertSubject, COMMAND_PREFIX, EVENT_PREFIX, patternsOverlap, subjectMatches } from './subjects.ts';

export interface MemoryBusOptions {
  /** How long a msgId is remembered for dedupe; JetStream's default duplicate window is 2 minutes. */
  dedupeWindowMs?: number;
  /** Failures with no caller to throw to (throwing subscribers, failing onDeadLetter). Default: stderr. */
  onError?: BusErrorReporter;
}

const DEFAULT_DEDUPE_WINDOW_MS = 120_000;

type MessageState = 'ready' | 'delayed' | 'inflight' | 'gone';

interface StoredMessage {
  readonly seq: number;
  readonly subject: string;
  readonly msgId: string;
  readonly json: string;
  deliveries: number;
  /** Bumped on every delivery so a late call from an earlier delivery can tell it is stale. */
  attempt: number;
  state: MessageState;
  timer: NodeJS.Timeout | undefined;
}

interface Puller {
  readonly handler: CommandHandler<unknown>;
  readonly options: ConsumeOptions;
  inflight: number;
  closed: boolean;
  drained: (() => void) | undefined;
}

/** A FIFO that does not shift arrays on every pop; entries that left the queue meanwhile are skipped lazily. */
class Fifo<T> {
  private items: T[] = [];
  private head = 0;
  push(item: T): void {
    this.items.push(item);
  }
  peek(): T | undefined {
    return this.items[this.head];
  }
  shift(): T | undefined {
    const item = this.items[this.head];
    if (item === undefined) return undefined;
    this.head++;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }
  get size(): number {
    return this.items.length - this.head;
  }
}

interface Responder {
  readonly handler: RequestHandler<unknown>;
  readonly limiter: Limiter;
  closed: boolean;
}

interface Durable {
  readonly name: string;
  readonly pattern: string;
  ackWaitMs: number;
  maxDeliver: number;
  /** Like JetStream, redeliveries go before messages never delivered. */
  readonly redeliver: Fifo<StoredMessage>;
  readonly fresh: Fifo<StoredMessage>;
  readonly pullers: Puller[];
  nextPuller: number;
  dispatchScheduled: boolean;
}

/**
 * The in-process bus for embedded mode, with the same semantics as the JetStream driver: one work queue
 * where each message belongs to the durable whose filter matches it (filters may not overlap), explicit
 * ack / nak(delay) / working / term, redelivery after the ack wait, max-deliver dead letters, msgId dedupe,
 * bounded concurrency per consume call; plus publish/subscribe for events and request/reply through the same
 * JSON codec (responders of a subject take requests in turn).
 */
export function createMemoryBus(options: MemoryBusOptions = {}): Bus {
  const dedupeWindowMs = options.dedupeWindowMs ?? DEFAULT_DEDUPE_WINDOW_MS;
  const onError = options.onError ?? reportToStderr;

  let closed = false;
  let nextSeq = 1;
  const seen = new Map<string, number>(); // msgId → expiry; insertion order is expiry order
  const unassigned: StoredMessage[] = []; // sent before any durable wanted them
  const durables = new Map<string, Durable>();
  const live = new Set<StoredMessage>();
  const subscribers = new Set<{ pattern: string; handler: EventHandler<unknown> }>();
  const pendingEvents = new Set<NodeJS.Immediate>();
  // Per subject, in the order they started serving; requests go round the list (a queue group shares the work).
  const responders = new Map<string, { list: Responder[]; next: number }>();

  const ensureOpen = () => {
    if (closed) throw unavailable('TAGSONIC_ERR_BUS_CLOSED', 'The bus is closed.');
  };

  const forget = (message: StoredMessage) => {
    if (message.timer) clearTimeout(message.timer);
    message.timer = undefined;
    message.state = 'gone';
    live.delete(message);
  };

  const routeOf = (subject: string): Durable | undefined => {
    for (const durable of durables.values()) if (subjectMatches(durable.pattern, subject)) return durable;
    return undefined;
  };

  const scheduleDispatch = (durable: Durable) => {
    if (durable.dispatchScheduled || closed) return;
    durable.dispatchScheduled = true;
    // Handlers never run inside send()/ack(): delivery is always asynchronous, as over the network.
    setImmediate(() => {
      durable.dispatchScheduled = false;
      dispatch(durable);
    });
  };

  const takeNext = (durable: Durable): StoredMessage | undefined => {
    for (const queue of [durable.redeliver, durable.fresh]) {
      while (queue.size > 0 && queue.peek()!.state !== 'ready') queue.shift();
      if (queue.size > 0) return queue.shift();
    }
    return undefined;
  };

  const freePuller = (durable: Durable): Puller | undefined => {
    const count = durable.pullers.length;
    for (let i = 0; i < count; i++) {
      const puller = durable.pullers[(durable.nextPuller + i) % count];
      if (!puller.closed && puller.inflight < puller.options.concurrency) {
        durable.nextPuller = (durable.nextPuller + i + 1) % count;
        return puller;
      }
    }
    return undefined;
  };

  const deadLetterOnTimeout = (durable: Durable, message: StoredMessage, puller: Puller) => {
    forget(message);
    void reportDeadLetter(
      puller.options,
      {
        subject: message.subject,
        msgId: message.msgId,
        payload: decodePayload(message.json),
        deliveryCount: message.deliveries,
        reason: 'max-deliver',
        error: `not settled within the ack wait of ${durable.ackWaitMs} ms on the last allowed delivery`,
        at: new Date(),
      },
      onError,
    );
  };

  const dispatch = (durable: Durable) => {
    while (!closed) {
      const puller = freePuller(durable);
      if (!puller) return;
      const message = takeNext(durable);
      if (!message) return;
      // Possible when a later consume call lowered maxDeliver; JetStream gives up on such a message too.
      if (message.deliveries >= durable.maxDeliver) deadLetterOnTimeout(durable, message, puller);
      else deliver(durable, message, puller);
    }
  };

  const requeue = (durable: Durable, message: StoredMessage) => {
    message.state = 'ready';
    message.timer = undefined;
    durable.redeliver.push(message);
    scheduleDispatch(durable);
  };

  const deliver = (durable: Durable, message: StoredMessage, puller: Puller) => {
    message.deliveries++;
    const attempt = ++message.attempt;
    message.state = 'inflight';
    const current = () => message.state === 'inflight' && message.attempt === attempt;
    const armAckWait = () => {
      if (message.timer) clearTimeout(message.timer);
      message.timer = setTimeout(() => {
        message.timer = undefined;
        if (!current()) return;
        if (message.deliveries >= durable.maxDeliver) deadLetterOnTimeout(durable, message, puller);
        else requeue(durable, message);
      }, durable.ackWaitMs);
    };
    armAckWait();

    const control: DeliveryControl<unknown> = {
      subject: message.subject,
      msgId: message.msgId,
      payload: decodePayload(message.json),
      deliveryCount: message.deliveries,
      // A late ack still removes the message, as JetStream acks by stream sequence, whichever delivery it came from.
      ack: async () => {
        if (message.state !== 'gone') forget(message);
      },
      nak: async (delayMs) => {
        if (!current()) return;
        if (message.timer) clearTimeout(message.timer);
        if (delayMs <= 0) {
          requeue(durable, message);
          return;
        }
        message.state = 'delayed';
        message.timer = setTimeout(() => requeue(durable, message), delayMs);
      },
      working: async () => {
        if (current()) armAckWait();
      },
      terminate: async () => {
        if (message.state === 'gone') return false;
        forget(message);
        return true;
      },
      expired: () => !current(),
    };

    puller.inflight++;
    void runCommand(control, puller.handler, puller.options, onError)
      .catch((error: unknown) => onError(error, `running handler for ${message.subject}`))
      .finally(() => {
        puller.inflight--;
        if (puller.closed && puller.inflight === 0) puller.drained?.();
        scheduleDispatch(durable);
      });
  };

  const rememberMsgId = (msgId: string): boolean => {
    const now = Date.now();
    for (const [id, expiresAt] of seen) {
      if (expiresAt > now) break;
      seen.delete(id);
    }
    if (seen.has(msgId)) return false;
    seen.set(msgId, now + dedupeWindowMs);
    return true;
  };

  const closePuller = async (durable: Durable, puller: Puller) => {
    if (puller.closed) return;
    puller.closed = true;
    const index = durable.pullers.indexOf(puller);
    if (index >= 0) durable.pullers.splice(index, 1);
    durable.nextPuller = 0;
    if (puller.inflight > 0) await new Promise<void>((resolve) => (puller.drained = resolve));
  };

  return {
    driver: 'memory',

    async send(subject: string, payload: unknown, sendOptions: SendOptions): Promise<SendResult> {
      ensureOpen();
      assertSubject(subject, COMMAND_PREFIX);
      const json = encodePayload(payload);
      if (!rememberMsgId(sendOptions.msgId)) return { duplicate: true };
      const message: StoredMessage = {
        seq: nextSeq++,
        subject,
        msgId: sendOptions.msgId,
        json,
        deliveries: 0,
        attempt: 0,
        state: 'ready',
        timer: undefined,
      };
      live.add(message);
      const durable = routeOf(subject);
      if (durable) {
        durable.fresh.push(message);
        scheduleDispatch(durable);
      } else {
        unassigned.push(message);
      }
      return { duplicate: false };
    },

    async consume<T = unknown>(subject: string, handler: CommandHandler<T>, consumeOptions: ConsumeOptions): Promise<Subscription> {
      ensureOpen();
      assertPattern(subject, COMMAND_PREFIX);
      assertConsumeOptions(consumeOptions);
      let durable = durables.get(consumeOptions.durable);
      if (durable && durable.pattern !== subject) {
        throw conflict(
          'TAGSONIC_ERR_BUS_CONSUMER_CONFLICT',
          `Durable consumer "${durable.name}" already consumes "${durable.pattern}", not "${subject}".`,
        );
      }
      if (!durable) {
        for (const other of durables.values()) {
          if (patternsOverlap(other.pattern, subject)) {
            throw conflict(
              'TAGSONIC_ERR_BUS_CONSUMER_CONFLICT',
              `"${subject}" overlaps "${other.pattern}" of durable consumer "${other.name}": on a work queue each command must belong to one consumer.`,
            );
          }
        }
        durable = {
          name: consumeOptions.durable,
          pattern: subject,
          ackWaitMs: consumeOptions.ackWaitMs,
          maxDeliver: consumeOptions.maxDeliver,
          redeliver: new Fifo(),
          fresh: new Fifo(),
          pullers: [],
          nextPuller: 0,
          dispatchScheduled: false,
        };
        durables.set(durable.name, durable);
        // Commands sent before anyone consumed them were kept; they now belong to this durable, in order.
        for (let i = 0; i < unassigned.length; ) {
          if (subjectMatches(subject, unassigned[i].subject)) durable.fresh.push(unassigned.splice(i, 1)[0]);
          else i++;
        }
      }
      // The latest consume call's settings win, like a JetStream consumer update.
      durable.ackWaitMs = consumeOptions.ackWaitMs;
      durable.maxDeliver = consumeOptions.maxDeliver;
      const puller: Puller = {
        handler: handler as CommandHandler<unknown>,
        options: consumeOptions,
        inflight: 0,
        closed: false,
        drained: undefined,
      };
      durable.pullers.push(puller);
      scheduleDispatch(durable);
      const owner = durable;
      return { close: () => closePuller(owner, puller) };
    },

    async publish(subject: string, payload: unknown): Promise<void> {
      ensureOpen();
      assertSubject(subject, EVENT_PREFIX);
      const json = encodePayload(payload);
      for (const subscriber of subscribers) {
        if (!subjectMatches(subscriber.pattern, subject)) continue;
        const immediate = setImmediate(() => {
          pendingEvents.delete(immediate);
          if (!subscribers.has(subscriber)) return;
          try {
            subscriber.handler(subject, decodePayload(json));
          } catch (error) {
            onError(error, `event subscriber for "${subscriber.pattern}" failed on ${subject}`);
          }
        });
        pendingEvents.add(immediate);
      }
    },

    subscribe<T = unknown>(pattern: string, handler: EventHandler<T>): Subscription {
      ensureOpen();
      assertPattern(pattern, EVENT_PREFIX);
      const subscriber = { pattern, handler: handler as EventHandler<unknown> };
      subscribers.add(subscriber);
      return {
        close: async () => {
          subscribers.delete(subscriber);
        },
      };
    },

    async request<T = unknown>(subject: string, payload: unknown, requestOptions: RequestOptions = {}): Promise<T> {
      ensureOpen();
      assertSubject(subject, RPC_PREFIX);
      const timeoutMs = requestOptions.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
      assertTimeout(timeoutMs);
      const json = encodePayload(payload);
      const entry = responders.get(subject);
      if (!entry || entry.list.length === 0) throw noResponder(subject);
      const responder = entry.list[entry.next % entry.list.length];
      entry.next = (entry.next + 1) % entry.list.length;
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => reject(requestTimeout(subject, timeoutMs)), timeoutMs);
        // Never inside request(): the handler runs later, as it would across the network.
        setImmediate(() => {
          void responder.limiter
            .run(() => answer(responder.handler, json))
            .then((reply) => {
              clearTimeout(timer);
              try {
                resolve(settle<T>(reply, subject));
              } catch (error) {
                reject(error);
              }
            });
        });
      });
    },

    async serve<T = unknown>(subject: string, handler: RequestHandler<T>, serveOptions: ServeOptions): Promise<Subscription> {
      ensureOpen();
      assertSubject(subject, RPC_PREFIX);
      assertServeOptions(serveOptions);
      const responder: Responder = { handler: handler as RequestHandler<unknown>, limiter: new Limiter(serveOptions.concurrency), closed: false };
      const entry = responders.get(subject) ?? { list: [], next: 0 };
      responders.set(subject, entry);
      entry.list.push(responder);
      return {
        close: async () => {
          if (responder.closed) return;
          responder.closed = true;
          const index = entry.list.indexOf(responder);
          if (index >= 0) entry.list.splice(index, 1);
          await responder.limiter.drained();
        },
      };
    },

    async health(): Promise<BusHealth> {
      if (closed) return { ok: false, driver: 'memory', detail: 'closed' };
      return { ok: true, driver: 'memory', detail: `in-process; ${live.size} command(s) held` };
    },

    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      subscribers.clear();
      const answering = [...responders.values()].flatMap((entry) => entry.list.map((r) => r.limiter.drained()));
      responders.clear();
      for (const immediate of pendingEvents) clearImmediate(immediate);
      pendingEvents.clear();
      const draining: Promise<void>[] = [];
      for (const durable of durables.values()) {
        for (const puller of [...durable.pullers]) draining.push(closePuller(durable, puller));
      }
      await Promise.all([...draining, ...answering]);
      for (const message of live) if (message.timer) clearTimeout(message.timer);
    },
  };
}
