/**
 * Fair shares between companies: each company's requests work within a budget of their own, so
 * one company's requests, blocked or large, cannot take the sandbox from the others.
 *
 * - **Concurrent work (a bulkhead).** While another company is served (it made a request in the
 *   last second, or has one working or waiting), a company has `slots` (4) requests working on the
 *   database at once at most: on a PostgreSQL server, 4 of the pool's 10 connections. A company
 *   alone has `aloneSlots` (8): the pool less two, left for whoever comes next. Its other requests
 *   wait their turn, in order, at most `wait` (the sandbox's bound); past it, or when `queue` of
 *   them already wait, a request is answered 503 with `Retry-After` and nothing of it is done. So a
 *   company whose rows are locked, or whose worker is down, holds a few connections while its
 *   requests wait on the database, never the pool: once another company comes, it starts no more
 *   than its 4 at once, and what it held ends within the bound. A request works while its handler
 *   runs. Alone, a company's requests keep as many statements in flight as a client of the pool
 *   would: with 4, each statement's answer came back on a turn of the event loop of its own more
 *   often, and a create cost the process about a tenth more CPU (docs/benchmarks.md).
 * - **Bulk work.** A request whose headers declare a body of more than `BULK` bytes (64 KiB), or do
 *   not say its length, is bulk work: the largest payroll group (150,000 locations, 879 KiB of
 *   JSON) costs the process and the database a second or more, where other requests take
 *   milliseconds. While another company is served (it made a request in the last second), a
 *   company's bulk requests run one at a time, each taking its turn as soon as its key is checked,
 *   before its body is read (a body waiting costs nothing), and keeping it until its answer is
 *   sent; after each, its company's next bulk request waits `PACE` times as long as it took. So
 *   bulk work takes a quarter of the sandbox's time at most while others are served, and the
 *   others' requests, each a turn of the engine between two, keep their pace. A company alone
 *   runs its bulk work as it comes.
 *
 * The handlers keep the concurrent-work budget on every transport (`shareByCompany`); the bulk
 * work's turn is taken by the key hook, which the HTTP server calls before it reads a body.
 */
import {
  type Authenticate,
  type AuthResult,
  type Handlers,
  type ServerRequest,
  serviceUnavailable,
} from "workforce-scheduling-api/handlers";
import type { Caller } from "./keys.js";

/** The size of body above which a request is bulk work, in bytes. */
export const BULK = 65_536;

/** How many times its own duration a company's bulk request makes its next one wait, while others are served. */
export const PACE = 3;

/** How recent another company's request must be for it to count as served. */
const SERVED_MS = 1000;

/** A company's budget. */
export interface BudgetSettings {
  /** the requests of one company working on the database at once, while another company is served */
  readonly slots: number;
  /** the requests of a company working at once while no other is served (`slots` when not given) */
  readonly aloneSlots?: number;
  /** how long a request may wait for its company's turn, in milliseconds */
  readonly wait: number;
  /** how many requests of one company may wait for each kind of turn; a request beyond them is refused at once */
  readonly queue: number;
}

/** A company's budget, its requests waiting at most `wait` ms for their turn. */
export function budgetFor(wait: number): BudgetSettings {
  return { slots: SLOTS, aloneSlots: ALONE_SLOTS, wait, queue: QUEUE };
}

/**
 * The requests of one company working at once: on a PostgreSQL server, 4 of the pool's 10
 * connections, so that the others stay free for the other companies whatever one company's
 * requests wait on; on the embedded engine, which runs one statement at a time, 4 of the requests
 * queued for it.
 */
const SLOTS = 4;

/**
 * The requests of a company working at once while no other company is served: the pool's 10
 * connections less two, which stay free for the first requests of a company that comes.
 */
const ALONE_SLOTS = 8;

/**
 * How many requests of one company may wait for their turn. A waiting request holds no connection,
 * only its socket, and waits the bound at most, so the queue is long enough for a client's burst
 * (100 creates sent at once wait their turns and are all stored) and bounds only a flood.
 */
const QUEUE = 256;

/** A request waiting for its turn at a gate, until its deadline (Date.now()'s clock). */
interface Waiting {
  readonly start: () => void;
  readonly refuse: (problem: unknown) => void;
  readonly deadline: number;
}

/**
 * Turns of one kind for one company: at most `limit()` at once, the others waiting in order, each
 * at most the budget's wait, and none before `notBefore`. The waiting requests share one timer,
 * set for the first one's deadline (the queue is in the order of the deadlines, each the same wait
 * after its arrival), not one each: a request that waits costs no timer of its own.
 */
class Gate {
  inUse = 0;
  /** when the next turn may start (bulk work paced) */
  notBefore = 0;
  readonly #waiting: Waiting[] = [];
  readonly #limit: () => number;
  readonly #settings: BudgetSettings;
  /** the count, shared by the gates of every company, of the requests working or waiting at them */
  readonly #tally: { count: number } | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** the timer of the first waiting request's deadline, and when it is set for */
  #expiry: ReturnType<typeof setTimeout> | undefined;
  #expiresAt = 0;

  constructor(limit: () => number, settings: BudgetSettings, tally?: { count: number }) {
    this.#limit = limit;
    this.#settings = settings;
    this.#tally = tally;
  }

  /**
   * Takes a turn: undefined when it is the request's at once, else a promise resolved when it
   * comes, or rejected with a 503 problem when it does not come within the wait.
   */
  enter(): Promise<void> | undefined {
    if (this.#waiting.length === 0 && this.#open()) {
      this.inUse++;
      if (this.#tally !== undefined) this.#tally.count++;
      return undefined;
    }
    if (this.#waiting.length >= this.#settings.queue) return Promise.reject(this.#refusal());
    if (this.#tally !== undefined) this.#tally.count++;
    return new Promise((resolve, reject) => {
      this.#waiting.push({ start: resolve, refuse: reject, deadline: Date.now() + this.#settings.wait });
      this.admit();
      this.#expire();
    });
  }

  /** Ends a turn, and starts the turns waiting that now may. */
  leave(): void {
    this.inUse--;
    if (this.#tally !== undefined) this.#tally.count--;
    this.admit();
  }

  /** Whether requests wait here. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /** Starts the waiting turns, in order, while they may; wakes up when a pause ends. */
  admit(): void {
    while (this.#waiting.length > 0 && this.#open()) {
      this.inUse++;
      this.#waiting.shift()?.start();
    }
    if (this.#waiting.length === 0 && this.#expiry !== undefined) {
      clearTimeout(this.#expiry);
      this.#expiry = undefined;
    }
    const paused = this.notBefore - Date.now();
    if (this.#waiting.length > 0 && paused > 0 && this.#timer === undefined) {
      this.#timer = setTimeout(() => {
        this.#timer = undefined;
        this.admit();
      }, paused);
      this.#timer.unref?.();
    }
  }

  /** Refuses the waiting requests whose deadline has passed, and sets the timer for the next deadline. */
  #expire(): void {
    const now = Date.now();
    while ((this.#waiting[0]?.deadline ?? Number.POSITIVE_INFINITY) <= now) {
      this.#waiting.shift()?.refuse(this.#refusal());
      if (this.#tally !== undefined) this.#tally.count--;
    }
    const next = this.#waiting[0]?.deadline;
    if (next === undefined || (this.#expiry !== undefined && this.#expiresAt <= next)) return;
    if (this.#expiry !== undefined) clearTimeout(this.#expiry);
    this.#expiresAt = next;
    this.#expiry = setTimeout(() => {
      this.#expiry = undefined;
      this.#expire();
    }, next - now);
  }

  #open(): boolean {
    return this.inUse < this.#limit() && Date.now() >= this.notBefore;
  }

  /** The 503 of a request whose turn did not come: Retry-After the pause left, or a second. */
  #refusal(): unknown {
    return serviceUnavailable(
      "This company's requests already use its share of the sandbox; this one waited its turn too long. Nothing of it was done; try again.",
      Math.max(1, Math.ceil((this.notBefore - Date.now()) / 1000)),
    );
  }
}

/** What the budget knows of a company. */
interface Company {
  readonly work: Gate;
  readonly bulk: Gate;
}

/** The budgets of every company of one sandbox. */
export class CompanyBudgets {
  readonly #settings: BudgetSettings;
  /** one entry per company that has made a request: the seed's few */
  readonly #companies = new Map<number, Company>();
  /** the company that made the last request, and when */
  #lastId = Number.NaN;
  #lastAt = Number.NEGATIVE_INFINITY;
  /** when a company other than `#lastId` last made one */
  #lastOther = Number.NEGATIVE_INFINITY;
  /** the requests working or waiting for a slot, of every company */
  readonly #working = { count: 0 };

  constructor(settings: BudgetSettings) {
    this.#settings = settings;
  }

  /**
   * Runs `work` (a handler's) on `input` for `companyId` in one of its slots, when its turn comes
   * (see the module's comment); a turn free at once runs it without a closure of its own.
   */
  work<I, T>(companyId: number, work: (input: I) => T | PromiseLike<T>, input?: I): Promise<T> {
    const gate = this.#arrive(companyId).work;
    const turn = gate.enter();
    return turn === undefined ? inTurn(gate, work, input as I) : turn.then(() => inTurn(gate, work, input as I));
  }

  /**
   * Waits for `companyId`'s turn of bulk work (at once when no other company is served): the
   * function that ends it, paces the company's next, and starts the next waiting.
   */
  async bulk(companyId: number): Promise<() => void> {
    const company = this.#arrive(companyId);
    await company.bulk.enter();
    const started = Date.now();
    return () => {
      if (this.#othersServed(companyId, started - SERVED_MS))
        company.bulk.notBefore = Math.max(company.bulk.notBefore, Date.now() + (Date.now() - started) * PACE);
      company.bulk.leave();
    };
  }

  /** The company of a request that arrives now. */
  #arrive(companyId: number): Company {
    if (this.#lastId !== companyId) {
      this.#lastOther = this.#lastAt;
      this.#lastId = companyId;
    }
    this.#lastAt = Date.now();
    return this.#companies.get(companyId) ?? this.#add(companyId);
  }

  /** A company's gates, made at its first request. */
  #add(companyId: number): Company {
    const { slots, aloneSlots = slots } = this.#settings;
    const company: Company = {
      work: new Gate(
        () => (aloneSlots === slots || this.#othersServed(companyId, Date.now() - SERVED_MS) ? slots : aloneSlots),
        this.#settings,
        this.#working,
      ),
      bulk: new Gate(
        () => (this.#othersServed(companyId, Date.now() - SERVED_MS) ? 1 : Number.POSITIVE_INFINITY),
        this.#settings,
      ),
    };
    this.#companies.set(companyId, company);
    return company;
  }

  /**
   * Whether another company has a request working or waiting, or made one `since`: told from the
   * last two companies to make one and the count of requests working, whatever the companies' number.
   */
  #othersServed(companyId: number, since: number): boolean {
    if ((this.#lastId === companyId ? this.#lastOther : this.#lastAt) >= since) return true;
    const own = this.#companies.get(companyId)?.work;
    return this.#working.count > (own === undefined ? 0 : own.inUse + own.waiting);
  }
}

/** Runs `work` on `input` in a turn of `gate` taken for it, ending the turn when the work ends, done or failed. */
function inTurn<I, T>(gate: Gate, work: (input: I) => T | PromiseLike<T>, input: I): Promise<T> {
  let running: T | PromiseLike<T>;
  try {
    running = work(input);
  } catch (error) {
    gate.leave();
    return Promise.reject(error);
  }
  return Promise.resolve(running).then(
    (value) => {
      gate.leave();
      return value;
    },
    (error: unknown) => {
      gate.leave();
      throw error;
    },
  );
}

function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
}

/** Whether a request's headers declare bulk work: a body of more than BULK bytes, or one whose length they do not say. */
export function isBulk(headers: Readonly<Record<string, unknown>>): boolean {
  const length = headers["content-length"];
  if (typeof length === "string" && /^\d+$/.test(length)) return Number(length) > BULK;
  return headers["transfer-encoding"] !== undefined;
}

/** The handlers and the key hook of a sandbox, sharing it between companies. */
export interface SharedSandbox {
  /** the key hook: a caller's bulk request then waits for its company's turn of bulk work, before its body is read */
  readonly authenticate: Authenticate<Caller>;
  /** the handlers, each run in one of its company's slots */
  readonly handlers: Handlers<Caller>;
  /** the transport's word that a request's answer is sent, or its client gone: its bulk turn, if any, ends */
  finished(request: object): void;
}

/** `handlers` and `authenticate`, each request of a company taking its turns within the company's budget. */
export function shareByCompany(
  handlers: Handlers<Caller>,
  authenticate: Authenticate<Caller>,
  budgets: CompanyBudgets,
): SharedSandbox {
  const bulkTurns = new WeakMap<object, () => void>();
  const shared: Record<string, unknown> = {};
  for (const [name, handler] of Object.entries(handlers) as [string, (input: { principal: Caller }) => unknown][])
    shared[name] = (input: { principal: Caller }) => budgets.work(input.principal.companyId, handler, input);
  /** A caller, once known: a bulk request's then waits for its company's turn of bulk work. */
  const withTurn = (
    caller: AuthResult<Caller>,
    request: ServerRequest,
  ): AuthResult<Caller> | Promise<AuthResult<Caller>> => {
    if (typeof caller !== "object" || !isBulk(request.headers)) return caller;
    return budgets.bulk(caller.companyId).then((end) => {
      bulkTurns.set(request, end);
      return caller;
    });
  };
  return {
    // a caller answered at once stays so, without a closure of its own: only a bulk request waits, for its turn
    authenticate: (key, request, scheme) => {
      const caller = authenticate(key, request, scheme);
      return isPromiseLike(caller)
        ? Promise.resolve(caller).then((known) => withTurn(known, request))
        : withTurn(caller, request);
    },
    handlers: shared as unknown as Handlers<Caller>,
    finished: (request) => {
      bulkTurns.get(request)?.();
      bulkTurns.delete(request);
    },
  };
}
