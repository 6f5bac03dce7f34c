/**
 * The generic request engine behind every generated method, driven by the routes it is given: it
 * knows no operation by itself. A call names its operation by its key in the route table, or gives
 * the operation's route itself (the TanStack Query options do, so a page bundles only the routes
 * it calls).
 */
import type { CallRoute, Credentials, ResponseValidators, Route } from "../route-types.js";
import type { AnswerCheck } from "./answer-check.js";
import { send } from "./operation.js";
import type { RetryOptions, RetryPolicy } from "./retry.js";
import type { TimeoutPolicy } from "./transport.js";
import { putHeaders } from "./values.js";

/** The fetch the client calls: the global one by default. */
export type FetchFunction = (input: string, init: RequestInit) => Promise<Response>;

/** Options every client takes, whatever its spec. */
export interface TransportOptions {
  /** the fetch implementation (default: the global fetch, looked up at each call) */
  readonly fetch?: FetchFunction;
  /** headers sent with every call (per-call headers override them) */
  readonly headers?: Readonly<Record<string, string>>;
  /** the longest a call may take, retries and waits included (default: no limit) */
  readonly timeoutMs?: number;
  /** retries with backoff (default: off) */
  readonly retry?: RetryOptions;
  /** check path, query, header and body against the contract before sending (default true) */
  readonly validateRequests?: boolean;
  /**
   * check each success body against the contract (default false): `true` for the validators of
   * the client's own spec, or the answers' validators to check against (`responseValidators`)
   */
  readonly validateResponses?: boolean | ResponseValidators;
}

/** Everything the engine needs: where to send, how, and which credentials to present. */
export interface RuntimeOptions
  extends Omit<TransportOptions, "retry" | "timeoutMs" | "validateResponses">,
    Credentials {
  /** when and after how long calls are tried again (`retrying(options)` makes one); none by default */
  readonly retry?: RetryPolicy;
  /** how calls time out (`timingOut(ms)` makes one); without one, no call times out, whatever its `timeoutMs` */
  readonly timeout?: TimeoutPolicy;
  /** how answers are checked (`checkingAnswers(validators)` makes one); without one, none is */
  readonly validateResponses?: AnswerCheck;
  readonly baseUrl?: string;
  readonly serverVariables?: Readonly<Record<string, string | undefined>>;
}

/** The per-call second argument of every method. */
export interface CallOptions {
  /** cancels the call, including a pending retry wait; the call rejects with the signal's reason */
  readonly signal?: AbortSignal;
  /** this call's timeout, overriding the client's (Infinity: none): see `TimeoutPolicy` */
  readonly timeoutMs?: number;
  /** extra headers for this call */
  readonly headers?: Readonly<Record<string, string>>;
}

/** The argument of an operation that takes none. */
export type NoArgs = { readonly [key: string]: never };

/** A method's first argument, as the engine reads it. */
export interface CallArgs {
  readonly path?: Readonly<Record<string, unknown>>;
  readonly query?: Readonly<Record<string, unknown>>;
  readonly headers?: Readonly<Record<string, unknown>>;
  readonly cookies?: Readonly<Record<string, unknown>>;
  readonly body?: unknown;
  readonly contentType?: string;
}

/** The client's options, resolved once. */
export interface Settings extends Credentials {
  readonly baseUrl: string;
  /** the fetch given; without one, the global fetch, looked up at each call */
  readonly fetch?: FetchFunction;
  readonly headers: Readonly<Record<string, string>>;
  readonly timeout?: TimeoutPolicy;
  readonly retry?: RetryPolicy;
  readonly validateRequests: boolean;
  readonly validateResponses?: AnswerCheck;
}

/**
 * The default base URL: the spec's first server's URL, its `{name}` placeholders filled from
 * `variables` or their defaults (the generated `serverUrl`; "" without a server).
 */
export type ServerUrl = (variables?: Readonly<Record<string, string | undefined>>) => string;

/**
 * The engine of one client: its resolved options; it calls an operation by its route (or call
 * entry), as the TanStack Query options do, so a page that calls no operation by key bundles no
 * lookup of one (`TableRuntime` has it).
 */
export class Runtime {
  readonly #settings: Settings;

  /** `serverUrl` makes the default base URL, from the server variables given (the generated `serverUrl`). */
  constructor(serverUrl: ServerUrl, options: RuntimeOptions) {
    // the client's options, resolved once
    this.#settings = {
      ...options,
      baseUrl: (options.baseUrl ?? serverUrl(options.serverVariables)).replace(/\/+$/, ""),
      headers: putHeaders({}, options.headers),
      validateRequests: options.validateRequests ?? true,
    };
  }

  /**
   * Calls the operation of `route`. Whatever keeps the call from being sent (a route that cannot
   * be prepared) rejects it, `send` being async.
   */
  call<R>(route: CallRoute, args: object | undefined, options?: CallOptions): Promise<R> {
    return send(route, this.#settings, (args ?? {}) as CallArgs, options) as Promise<R>;
  }
}

/** An engine that also calls an operation by its key in the route table (a `Client`'s methods, a webhook sender). */
export class TableRuntime extends Runtime {
  readonly #routes: Readonly<Record<string, Route>>;

  constructor(routes: Readonly<Record<string, Route>>, serverUrl: ServerUrl, options: RuntimeOptions) {
    super(serverUrl, options);
    this.#routes = routes;
  }

  /** Calls an operation: its key in the route table, or its route; an unknown key rejects the call. */
  override async call<R>(operation: string | CallRoute, args: object | undefined, options?: CallOptions): Promise<R> {
    const route = typeof operation === "string" ? this.#routes[operation] : operation;
    if (route === undefined) throw new TypeError(`no operation "${operation}" in the route table`);
    return super.call<R>(route, args, options);
  }
}

/** The key under which a client keeps its engine (a symbol: no operation's method can take it). */
export const RUNTIME: unique symbol = Symbol("runtime");

/**
 * A client without methods: its engine only, which calls an operation by its route. The TanStack
 * Query options take one (the full `Client` is one too), so a page created with `createBaseClient`
 * bundles the routes and validators of the operations whose options it imports, and no other.
 */
export interface BaseClient {
  readonly [RUNTIME]: Runtime;
}
