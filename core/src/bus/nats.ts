import {
  AckPolicy,
  DeliverPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  jetstreamManager,
  RetentionPolicy,
  StorageType,
  type Consumer,
  type ConsumerMessages,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
  type StreamConfig,
} from '@nats-io/jetstream';
import { connect, RequestError, TimeoutError, type NatsConnection, type Subscription as NatsSubscription } from '@nats-io/transport-node';
import { conflict, invalid, isTagsonicError, TagsonicError, unavailable } from '../errors/index.ts';
import { decodePayload, encodePayload, errorMessage } from './codec.ts';
import { assertConsumeOptions, reportDeadLetter, reportToStderr, runCommand, type BusErrorReporter, type DeliveryControl } from './handler.ts';
import type {
  Bus,
  BusHealth,
  CommandHandler,
  ConsumeOptions,
  DeadLetter,
  EventHandler,
  RequestHandler,
  RequestOptions,
  SendOptions,
  SendResult,
  ServeOptions,
  Subscription,
} from './port.ts';
import {
  answer,
  assertServeOptions,
  assertTimeout,
  DEFAULT_REQUEST_TIMEOUT_MS,
  encodeError,
  Limiter,
  noResponder,
  replyTooLarge,
  requestTimeout,
  RPC_PREFIX,
  settle,
} from './rpc.ts';
import { assertPattern, assertSubject, COMMAND_PREFIX, EVENT_PREFIX } from './subjects.ts';

export interface NatsBusOptions {
  servers: string | string[];
  /** Shown by the server's monitoring for this connection (e.g. `tagsonic-gateway`). */
  name?: string;
  /** The work-queue stream holding commands. */
  streamName?: string;
  /** Failures with no caller to throw to (throwing subscribers, lost acks). Default: stderr. */
  onError?: BusErrorReporter;
}

const DEFAULT_STREAM = 'TAGSONIC_CMD';
const DUPLICATE_WINDOW_MS = 120_000;
const API_TIMEOUT_MS = 5_000;
/** How long one pull request waits on the server; the client's minimum is 1 s. */
const PULL_EXPIRES_MS = 5_000;
/**
 * Sends and consumer set-ups retry for this long across a reconnect (a repeated msgId is deduped by the
 * server, so resending is safe). Requests issued while disconnected are lost by the client, not replayed.
 */
const RETRY_BUDGET_MS = 10_000;
/** One JetStream API attempt; a healthy server answers in milliseconds. */
const ATTEMPT_TIMEOUT_MS = 2_000;
/** Our clock starts when the message arrives, the server's when it sent it: count a delivery expired a bit early. */
const EXPIRY_MARGIN_MS = 50;
/** Past the server's ack wait, so a handler hung on its last delivery is dead-lettered after the server gave up. */
const TIMEOUT_GRACE_MS = 200;
const MS = 1_000_000; // nanoseconds: JetStream durations are in ns

const te = new TextEncoder();
const td = new TextDecoder();
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const isApiError = (error: unknown, ...codes: number[]): error is JetStreamApiError =>
  error instanceof JetStreamApiError && (codes.length === 0 || codes.includes(error.code));

/** Reconnect spacing that grows with the outage (250 ms … 5 s), so a short restart is caught quickly. */
function reconnectDelay(downSince: number | undefined): number {
  const down = downSince === undefined ? 0 : Date.now() - downSince;
  return Math.min(5_000, Math.max(250, Math.round(down / 2)));
}

interface ConsumerState {
  readonly durable: string;
  closing: boolean;
  /** Resolves when closing starts, to cut short back-off waits. */
  readonly stopping: Promise<void>;
  stop(): void;
  readonly batches: Set<ConsumerMessages>;
  readonly running: Set<Promise<void>>;
  closed: Promise<void> | undefined;
}

/**
 * The distributed bus: commands on a JetStream WorkQueue stream consumed by durable pull consumers, events
 * and request/reply on core NATS subjects. Semantics match the in-process driver (see the bus contract suite).
 */
export async function connectNatsBus(options: NatsBusOptions): Promise<Bus> {
  const streamName = options.streamName ?? DEFAULT_STREAM;
  if (!/^[A-Za-z0-9_-]+$/.test(streamName)) {
    throw invalid('TAGSONIC_ERR_BUS_OPTIONS_INVALID', `Stream name "${streamName}" must use only letters, digits, "-" and "_".`);
  }
  const onError = options.onError ?? reportToStderr;
  const where = Array.isArray(options.servers) ? options.servers.join(', ') : options.servers;

  let downSince: number | undefined;
  let nc: NatsConnection;
  try {
    nc = await connect({
      servers: options.servers,
      name: options.name ?? 'tagsonic',
      // A gateway or worker must outlive any NATS outage: never stop reconnecting.
      maxReconnectAttempts: -1,
      reconnectDelayHandler: () => reconnectDelay(downSince),
      reconnectJitter: 100,
      pingInterval: 20_000,
      timeout: API_TIMEOUT_MS,
    });
  } catch (cause) {
    throw unavailable('TAGSONIC_ERR_BUS_UNAVAILABLE', `Cannot connect to NATS at ${where}: ${errorMessage(cause)}`, cause);
  }

  let jsm: JetStreamManager;
  let js: JetStreamClient;
  try {
    jsm = await jetstreamManager(nc, { timeout: API_TIMEOUT_MS });
    js = jsm.jetstream();
    await ensureStream(jsm, streamName);
  } catch (cause) {
    await nc.close().catch(() => undefined);
    if (isTagsonicError(cause)) throw cause;
    throw unavailable('TAGSONIC_ERR_BUS_UNAVAILABLE', `NATS at ${where} has no usable JetStream (start nats-server with -js): ${errorMessage(cause)}`, cause);
  }

  let connected = true;
  let closing: Promise<void> | undefined;
  const consumers = new Set<ConsumerState>();
  const reconnectListeners = new Set<() => void>();

  void (async () => {
    for await (const status of nc.status()) {
      if (status.type === 'disconnect') {
        connected = false;
        downSince ??= Date.now();
      } else if (status.type === 'reconnect') {
        connected = true;
        downSince = undefined;
        // The server may have come back without our stream (fresh store): recreate it before pulling again.
        ensureStream(jsm, streamName).catch((error: unknown) => onError(error, 'recreating the command stream after reconnect'));
        for (const listener of reconnectListeners) listener();
      }
    }
  })();

  const ensureOpen = () => {
    if (closing || nc.isClosed()) throw unavailable('TAGSONIC_ERR_BUS_CLOSED', 'The bus is closed.');
  };

  const whenConnected = (timeoutMs: number): Promise<void> => {
    if (connected || timeoutMs <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        reconnectListeners.delete(done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      timer.unref();
      reconnectListeners.add(done);
    });
  };

  /** Retries transport failures (timeouts while the server restarts) within the budget; API refusals are final. */
  const withRetry = async <R>(fn: () => Promise<R>): Promise<R> => {
    const deadline = Date.now() + RETRY_BUDGET_MS;
    for (let attempt = 1; ; attempt++) {
      await whenConnected(deadline - Date.now());
      try {
        return await fn();
      } catch (error) {
        if (isTagsonicError(error) || isApiError(error) || nc.isClosed() || Date.now() + 100 >= deadline) throw error;
        await sleep(Math.min(1_000, 100 * 2 ** (attempt - 1), Math.max(0, deadline - Date.now())));
      }
    }
  };

  /** Removes a message for good. True only for the caller whose delete succeeded: it reports the dead letter. */
  const claim = async (seq: number): Promise<boolean> => {
    try {
      return await jsm.streams.deleteMessage(streamName, seq, false);
    } catch (error) {
      if (isApiError(error)) return false; // already gone: acked late, or claimed by someone else
      throw error;
    }
  };

  const ensureConsumer = async (subject: string, consumeOptions: ConsumeOptions): Promise<void> => {
    const { durable, ackWaitMs, maxDeliver } = consumeOptions;
    const wanted = { ack_wait: Math.round(ackWaitMs * MS), max_deliver: maxDeliver };
    const reconcile = async () => {
      const info = await jsm.consumers.info(streamName, durable);
      if (info.config.filter_subject !== subject) {
        throw conflict(
          'TAGSONIC_ERR_BUS_CONSUMER_CONFLICT',
          `Durable consumer "${durable}" already consumes "${info.config.filter_subject ?? '(everything)'}", not "${subject}".`,
        );
      }
      if (info.config.ack_wait !== wanted.ack_wait || info.config.max_deliver !== wanted.max_deliver) {
        await jsm.consumers.update(streamName, durable, wanted);
      }
    };
    try {
      await reconcile();
      return;
    } catch (error) {
      if (!isApiError(error, JetStreamApiCodes.ConsumerNotFound)) throw error;
    }
    try {
      await jsm.consumers.add(streamName, {
        durable_name: durable,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.All,
        filter_subject: subject,
        ...wanted,
      });
    } catch (error) {
      // 10099/10100: JetStream's own "filters overlap on a work queue" refusals.
      if (isApiError(error, 10099, 10100)) {
        throw conflict(
          'TAGSONIC_ERR_BUS_CONSUMER_CONFLICT',
          `"${subject}" overlaps the filter of another durable consumer: on a work queue each command must belong to one consumer (${error.message}).`,
        );
      }
      // Another process created it at the same moment: adopt theirs.
      if (isApiError(error, 10013, 10148)) return reconcile();
      throw error;
    }
  };

  const makeControl = (
    m: JsMsg,
    consumeOptions: ConsumeOptions,
  ): { control: DeliveryControl<unknown>; settled(): void } | { poison: string } => {
    const { ackWaitMs, maxDeliver } = consumeOptions;
    let payload: unknown;
    try {
      payload = decodePayload(td.decode(m.data));
    } catch (error) {
      return { poison: `payload is not JSON: ${errorMessage(error)}` };
    }
    const seq = m.seq;
    const deliveryCount = m.info.deliveryCount;
    let touchedAt = Date.now();
    let done = false;
    let timer: NodeJS.Timeout | undefined;
    const expired = () => Date.now() >= touchedAt + ackWaitMs - EXPIRY_MARGIN_MS;
    const finish = () => {
      done = true;
      if (timer) clearTimeout(timer);
    };

    const control: DeliveryControl<unknown> = {
      subject: m.subject,
      msgId: m.headers?.get('Nats-Msg-Id') ?? '',
      payload,
      deliveryCount,
      ack: async () => {
        const late = expired();
        finish();
        if (late) {
          // Nobody may answer an ack for a message already redelivered or dead-lettered; don't wait for it.
          m.ack();
          return;
        }
        await m.ackAck({ timeout: API_TIMEOUT_MS });
      },
      nak: async (delayMs) => {
        finish();
        m.nak(delayMs > 0 ? delayMs : undefined);
      },
      working: async () => {
        if (done) return;
        touchedAt = Date.now();
        m.working();
      },
      terminate: async () => {
        finish();
        const claimed = await claim(seq);
        m.term();
        return claimed;
      },
      expired,
    };

    // A handler still running when its last allowed delivery times out never reaches the server's
    // max-deliveries advisory (that needs a free pull), so this process reports it itself.
    if (deliveryCount >= maxDeliver) {
      const check = () => {
        if (done) return;
        const left = touchedAt + ackWaitMs + TIMEOUT_GRACE_MS - Date.now();
        if (left > 0) {
          timer = setTimeout(check, left);
          return;
        }
        finish();
        void (async () => {
          if (!(await claim(seq))) return;
          await reportDeadLetter(
            consumeOptions,
            {
              subject: control.subject,
              msgId: control.msgId,
              payload,
              deliveryCount,
              reason: 'max-deliver',
              error: `not settled within the ack wait of ${ackWaitMs} ms on the last allowed delivery`,
              at: new Date(),
            },
            onError,
          );
        })().catch((error: unknown) => onError(error, `dead-lettering timed-out ${control.subject}`));
      };
      timer = setTimeout(check, ackWaitMs + TIMEOUT_GRACE_MS);
    }
    return { control, settled: finish };
  };

  const onMaxDeliveries = async (raw: Uint8Array, consumeOptions: ConsumeOptions): Promise<void> => {
    const advisory = JSON.parse(td.decode(raw)) as { stream_seq: number; deliveries: number };
    const stored = await jsm.streams.getMessage(streamName, { seq: advisory.stream_seq });
    if (!stored) return;
    if (!(await claim(advisory.stream_seq))) return;
    let payload: unknown;
    try {
      payload = decodePayload(td.decode(stored.data));
    } catch {
      payload = td.decode(stored.data);
    }
    const letter: DeadLetter = {
      subject: stored.subject,
      msgId: stored.header?.get('Nats-Msg-Id') ?? '',
      payload,
      deliveryCount: advisory.deliveries,
      reason: 'max-deliver',
      error: `not settled within the ack wait of ${consumeOptions.ackWaitMs} ms on the last allowed delivery`,
      at: new Date(),
    };
    await reportDeadLetter(consumeOptions, letter, onError);
  };

  const deliver = async (m: JsMsg, handler: CommandHandler<unknown>, consumeOptions: ConsumeOptions): Promise<void> => {
    const made = makeControl(m, consumeOptions);
    if ('poison' in made) {
      // Not ours to parse: retrying cannot help, so it goes straight to the dead letters.
      if (!(await claim(m.seq))) return;
      m.term();
      await reportDeadLetter(
        consumeOptions,
        {
          subject: m.subject,
          msgId: m.headers?.get('Nats-Msg-Id') ?? '',
          payload: td.decode(m.data),
          deliveryCount: m.info.deliveryCount,
          reason: 'term',
          error: made.poison,
          at: new Date(),
        },
        onError,
      );
      return;
    }
    try {
      await runCommand(made.control, handler, consumeOptions, onError);
    } finally {
      made.settled();
    }
  };

  const pullLoop = async (state: ConsumerState, consumer: Consumer, handler: CommandHandler<unknown>, subject: string, consumeOptions: ConsumeOptions) => {
    let failures = 0;
    while (!state.closing) {
      let batch: ConsumerMessages | undefined;
      let received: JsMsg | undefined;
      let failure: { error: unknown } | undefined;
      try {
        // One message per pull keeps at most `concurrency` deliveries in this process, none waiting in a
        // client buffer while its ack wait runs.
        batch = await consumer.fetch({ max_messages: 1, expires: PULL_EXPIRES_MS });
        state.batches.add(batch);
        if (state.closing) batch.stop(); // close() ran while the pull was being set up
        for await (const m of batch) received = m;
        failures = 0;
      } catch (error) {
        failure = { error };
      } finally {
        if (batch) state.batches.delete(batch);
      }
      if (failure) {
        if (state.closing) break;
        failures++;
        // One failure is routine (a server shutting down ends every pull); repeated ones are worth a report.
        if (failures > 1) onError(failure.error, `pulling ${subject} for ${state.durable}`);
        await Promise.race([state.stopping, sleep(Math.min(5_000, 100 * 2 ** (failures - 1)))]);
        // Requests sent while disconnected are lost, so wait for the connection before anything else.
        await Promise.race([state.stopping, whenConnected(PULL_EXPIRES_MS)]);
        if (state.closing) break;
        // The consumer (or the whole stream) may be gone after a server lost its store: recreate both.
        await ensureStream(jsm, streamName)
          .then(() => ensureConsumer(subject, consumeOptions))
          .catch(() => undefined);
        continue;
      }
      if (!received) continue;
      if (state.closing) {
        received.nak(); // hand it back at once rather than let it wait out the ack wait
        break;
      }
      await deliver(received, handler, consumeOptions).catch((error: unknown) => onError(error, `delivering ${received.subject}`));
    }
  };

  const closeConsumer = (state: ConsumerState): Promise<void> => {
    state.closed ??= (async () => {
      state.closing = true;
      state.stop();
      for (const batch of state.batches) batch.stop();
      await Promise.allSettled([...state.running]);
      consumers.delete(state);
    })();
    return state.closed;
  };

  return {
    driver: 'nats',

    async send(subject: string, payload: unknown, sendOptions: SendOptions): Promise<SendResult> {
      ensureOpen();
      assertSubject(subject, COMMAND_PREFIX);
      const data = te.encode(encodePayload(payload));
      try {
        const ack = await withRetry(() => js.publish(subject, data, { msgID: sendOptions.msgId, timeout: ATTEMPT_TIMEOUT_MS }));
        return { duplicate: ack.duplicate === true };
      } catch (error) {
        throw unavailable('TAGSONIC_ERR_BUS_SEND_FAILED', `Could not queue ${subject} on NATS at ${where}: ${errorMessage(error)}`, error);
      }
    },

    async consume<T = unknown>(subject: string, handler: CommandHandler<T>, consumeOptions: ConsumeOptions): Promise<Subscription> {
      ensureOpen();
      assertPattern(subject, COMMAND_PREFIX);
      assertConsumeOptions(consumeOptions);
      let consumer: Consumer;
      try {
        consumer = await withRetry(async () => {
          await ensureConsumer(subject, consumeOptions);
          return js.consumers.get(streamName, consumeOptions.durable);
        });
      } catch (error) {
        if (error instanceof TagsonicError) throw error;
        throw unavailable('TAGSONIC_ERR_BUS_UNAVAILABLE', `Could not set up consumer "${consumeOptions.durable}" on NATS: ${errorMessage(error)}`, error);
      }

      let stop!: () => void;
      const stopping = new Promise<void>((resolve) => (stop = resolve));
      const state: ConsumerState = {
        durable: consumeOptions.durable,
        closing: false,
        stopping,
        stop,
        batches: new Set(),
        running: new Set(),
        closed: undefined,
      };
      consumers.add(state);
      const track = (work: Promise<void>) => {
        state.running.add(work);
        void work.finally(() => state.running.delete(work));
      };

      // A queue group, so that among all processes consuming this durable exactly one handles each advisory.
      const advisories: NatsSubscription = nc.subscribe(`$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES.${streamName}.${consumeOptions.durable}`, {
        queue: `tagsonic-dead-letters-${consumeOptions.durable}`,
        callback: (error, msg) => {
          if (error) return onError(error, `max-deliveries advisories for ${consumeOptions.durable}`);
          track(onMaxDeliveries(msg.data, consumeOptions).catch((e: unknown) => onError(e, `dead-lettering from advisory for ${consumeOptions.durable}`)));
        },
      });

      // Pull requests pending on a restarted server are forgotten: pull again at once instead of waiting them out.
      const onReconnect = () => {
        for (const batch of state.batches) batch.stop();
      };
      reconnectListeners.add(onReconnect);

      for (let i = 0; i < consumeOptions.concurrency; i++) {
        track(pullLoop(state, consumer, handler as CommandHandler<unknown>, subject, consumeOptions));
      }

      return {
        close: async () => {
          reconnectListeners.delete(onReconnect);
          await closeConsumer(state);
          if (!nc.isClosed()) advisories.unsubscribe();
        },
      };
    },

    async publish(subject: string, payload: unknown): Promise<void> {
      ensureOpen();
      assertSubject(subject, EVENT_PREFIX);
      nc.publish(subject, encodePayload(payload));
    },

    subscribe<T = unknown>(pattern: string, handler: EventHandler<T>): Subscription {
      ensureOpen();
      assertPattern(pattern, EVENT_PREFIX);
      const sub = nc.subscribe(pattern, {
        callback: (error, msg) => {
          if (error) return onError(error, `event subscription "${pattern}"`);
          let payload: T;
          try {
            payload = msg.json<T>();
          } catch (e) {
            return onError(e, `event on ${msg.subject} is not JSON`);
          }
          try {
            handler(msg.subject, payload);
          } catch (e) {
            onError(e, `event subscriber for "${pattern}" failed on ${msg.subject}`);
          }
        },
      });
      return {
        close: async () => {
          if (!nc.isClosed() && !sub.isClosed()) sub.unsubscribe();
        },
      };
    },

    async request<T = unknown>(subject: string, payload: unknown, requestOptions: RequestOptions = {}): Promise<T> {
      ensureOpen();
      assertSubject(subject, RPC_PREFIX);
      const timeoutMs = requestOptions.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
      assertTimeout(timeoutMs);
      const data = encodePayload(payload);
      let reply: string;
      try {
        // Core NATS request: the server tells at once when no subscription exists (no-responders status).
        reply = (await nc.request(subject, data, { timeout: timeoutMs })).string();
      } catch (error) {
        if (error instanceof RequestError && error.isNoResponders()) throw noResponder(subject);
        if (error instanceof TimeoutError || (error instanceof RequestError && error.cause instanceof TimeoutError)) {
          throw requestTimeout(subject, timeoutMs);
        }
        throw unavailable('TAGSONIC_ERR_BUS_UNAVAILABLE', `Could not ask ${subject} on NATS at ${where}: ${errorMessage(error)}`, error);
      }
      return settle<T>(reply, subject);
    },

    async serve<T = unknown>(subject: string, handler: RequestHandler<T>, serveOptions: ServeOptions): Promise<Subscription> {
      ensureOpen();
      assertSubject(subject, RPC_PREFIX);
      assertServeOptions(serveOptions);
      const limiter = new Limiter(serveOptions.concurrency);
      // A queue group: NATS hands each request to one member; the limiter keeps this member's load bounded.
      const sub = nc.subscribe(subject, {
        queue: serveOptions.queue,
        callback: (error, msg) => {
          if (error) return onError(error, `serving ${subject}`);
          void limiter
            .run(() => answer(handler as RequestHandler<unknown>, msg.string()))
            .then((reply) => {
              if (nc.isClosed()) return;
              const data = te.encode(reply);
              // The server drops a message over its max_payload (1 MiB by default): say so instead of a timeout.
              const max = nc.info?.max_payload ?? Number.POSITIVE_INFINITY;
              msg.respond(data.byteLength <= max ? data : encodeError(replyTooLarge(subject, data.byteLength, max)));
            })
            .catch((e: unknown) => onError(e, `answering ${subject}`));
        },
      });
      // The server must know the subscription before anyone relies on it answering.
      await nc.flush();
      return {
        close: async () => {
          if (!nc.isClosed() && !sub.isClosed()) sub.unsubscribe();
          await limiter.drained();
        },
      };
    },

    async health(): Promise<BusHealth> {
      if (closing || nc.isClosed()) return { ok: false, driver: 'nats', detail: 'closed' };
      if (!connected) return { ok: false, driver: 'nats', detail: `disconnected from ${where}; reconnecting` };
      try {
        const info = await Promise.race([
          jsm.streams.info(streamName),
          sleep(2_000).then(() => Promise.reject(new Error('JetStream did not answer within 2 s'))),
        ]);
        return { ok: true, driver: 'nats', detail: `connected to ${nc.getServer()}; stream ${streamName} holds ${info.state.messages} command(s)` };
      } catch (error) {
        return { ok: false, driver: 'nats', detail: `connected to ${nc.getServer()} but JetStream is unreachable: ${errorMessage(error)}` };
      }
    },

    close(): Promise<void> {
      closing ??= (async () => {
        await Promise.allSettled([...consumers].map(closeConsumer));
        if (nc.isClosed()) return;
        // Draining needs the server; during an outage there is nothing left to flush to it anyway.
        if (connected) await nc.drain();
        else await nc.close();
      })();
      return closing;
    },
  };
}

/** Creates the command stream, or brings an existing one in line; safe to call from many processes at once. */
async function ensureStream(jsm: JetStreamManager, name: string): Promise<void> {
  const wanted = {
    subjects: [`${COMMAND_PREFIX}>`],
    duplicate_window: DUPLICATE_WINDOW_MS * MS,
  };
  const reconcile = async () => {
    const info = await jsm.streams.info(name);
    if (info.config.retention !== RetentionPolicy.Workqueue) {
      throw conflict(
        'TAGSONIC_ERR_BUS_STREAM_CONFLICT',
        `NATS stream "${name}" exists with ${info.config.retention} retention; Tagsonic needs a work-queue stream (delete it or choose another streamName).`,
      );
    }
    const subjectsOk = info.config.subjects?.length === 1 && info.config.subjects[0] === wanted.subjects[0];
    if (!subjectsOk || info.config.duplicate_window !== wanted.duplicate_window) {
      await jsm.streams.update(name, { ...info.config, ...wanted });
    }
  };
  try {
    await reconcile();
    return;
  } catch (error) {
    if (!isApiError(error, JetStreamApiCodes.StreamNotFound)) throw error;
  }
  const config: Partial<StreamConfig> & { name: string } = {
    name,
    ...wanted,
    retention: RetentionPolicy.Workqueue,
    storage: StorageType.File,
  };
  try {
    await jsm.streams.add(config);
  } catch (error) {
    // 10058: created by another process in the meantime.
    if (isApiError(error, 10058)) return reconcile();
    throw error;
  }
}
