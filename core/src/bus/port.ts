/**
 * The bus port: commands travel on an at-least-once work queue, events on publish/subscribe, and
 * request/reply (at most once, answered by one responder) serves calls that someone waits for.
 *
 * Subjects are general → specific and carry no ids: commands `tagsonic.cmd.<area>.<verb>`,
 * events `tagsonic.evt.<entity>.<past-tense>`, request/reply `tagsonic.rpc.<area>.<verb>`. Ids live in payloads.
 * Two drivers implement it with the same semantics: in-process (embedded mode) and NATS JetStream.
 */

export type BusDriverName = 'memory' | 'nats';

export interface SendOptions {
  /** Dedupe key (normally the task-item id): a second send with the same id inside the dedupe window is dropped. */
  msgId: string;
}

export interface SendResult {
  /** True when the bus already held a message with this msgId and dropped this one. */
  duplicate: boolean;
}

/** One delivery of a command to a consumer. Exactly one of ack / nak / term settles it. */
export interface Delivery<T = unknown> {
  readonly subject: string;
  readonly msgId: string;
  readonly payload: T;
  /** 1 on the first delivery, then 2, 3, … on redeliveries. */
  readonly deliveryCount: number;
  /** Done: the message leaves the queue. */
  ack(): Promise<void>;
  /** Failed for now: redeliver at once, or after `delayMs`. */
  nak(delayMs?: number): Promise<void>;
  /** Still working: restarts the ack-wait timer so a long job is not redelivered. */
  working(): Promise<void>;
  /** Failed for good: never redeliver; the message is dead-lettered. */
  term(reason?: string): Promise<void>;
}

/** What the bus reports when a command will never be delivered again. */
export interface DeadLetter {
  subject: string;
  msgId: string;
  payload: unknown;
  deliveryCount: number;
  /** Why: `max-deliver` (handler kept failing or timing out) or `term` (handler gave up). */
  reason: 'max-deliver' | 'term';
  error?: string;
  at: Date;
}

export interface ConsumeOptions {
  /** Durable consumer name; consumers with the same name share the work (competing consumers). */
  durable: string;
  /** At most this many deliveries in flight in this process. */
  concurrency: number;
  /** Redeliver when not settled within this time. */
  ackWaitMs: number;
  /** Total deliveries before the message is dead-lettered. */
  maxDeliver: number;
  /** Back-off applied when the handler throws (nak delay); defaults to a short exponential back-off. */
  retryDelayMs?: (deliveryCount: number) => number;
  /** Called once per dead-lettered message. */
  onDeadLetter?: (letter: DeadLetter) => void | Promise<void>;
}

/**
 * A command handler. Returning normally acks (unless the handler settled the delivery itself);
 * throwing naks with back-off, and on the last allowed delivery dead-letters the message.
 * Handlers must be idempotent: a message can arrive more than once.
 */
export type CommandHandler<T = unknown> = (delivery: Delivery<T>) => Promise<void>;

export type EventHandler<T = unknown> = (subject: string, payload: T) => void;

export interface Subscription {
  /** Stops taking new deliveries and waits for those in flight. */
  close(): Promise<void>;
}

/** Options of one request: how long the caller waits for the reply. */
export interface RequestOptions {
  /** Default 30 s: long enough for a plugin call under its own watchdog, short enough to free a waiting HTTP request. */
  timeoutMs?: number;
}

export interface ServeOptions {
  /** Responders sharing a queue name share the requests: each request is answered by one of them. */
  queue: string;
  /** At most this many requests handled at once by this responder; further ones wait their turn in this process. */
  concurrency: number;
}

/**
 * Answers one request. The resolved value (JSON) is the reply; a thrown `TagsonicError` reaches the caller
 * as a `TagsonicError` with the same kind, code, message and details.
 */
export type RequestHandler<T = unknown> = (payload: T) => Promise<unknown>;

export interface BusHealth {
  ok: boolean;
  driver: BusDriverName;
  detail?: string;
}

export interface Bus {
  readonly driver: BusDriverName;
  /** Queues a command (subject under `tagsonic.cmd.`). Resolves once the bus has stored it. */
  send(subject: string, payload: unknown, options: SendOptions): Promise<SendResult>;
  /** Pulls commands matching `subject` (exact subject, or a `*`/`>` wildcard pattern). */
  consume<T = unknown>(subject: string, handler: CommandHandler<T>, options: ConsumeOptions): Promise<Subscription>;
  /** Fire-and-forget event (subject under `tagsonic.evt.`). */
  publish(subject: string, payload: unknown): Promise<void>;
  /** Receives events matching a pattern (`*` one token, `>` the rest). */
  subscribe<T = unknown>(pattern: string, handler: EventHandler<T>): Subscription;
  /**
   * Asks one responder (subject under `tagsonic.rpc.`) and resolves with its reply. Nobody serving the subject →
   * `TAGSONIC_ERR_BUS_NO_RESPONDER`; no reply in time → `TAGSONIC_ERR_BUS_TIMEOUT` (both kind `unavailable`).
   */
  request<T = unknown>(subject: string, payload: unknown, options?: RequestOptions): Promise<T>;
  /** Answers requests on `subject` (exact, under `tagsonic.rpc.`) until the subscription is closed. */
  serve<T = unknown>(subject: string, handler: RequestHandler<T>, options: ServeOptions): Promise<Subscription>;
  health(): Promise<BusHealth>;
  close(): Promise<void>;
}
