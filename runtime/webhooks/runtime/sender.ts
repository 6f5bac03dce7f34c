/**
 * The webhook sender: posts a webhook as the provider would, checked against the contract first
 * (parameters, headers, body), its answer read as a client reads one (an `ApiError` for one that is
 * not 2xx). For the tests of a receiver, and for a provider's own service. It is the client's
 * engine over the webhook table, with the consumer's base URL and the receiver's `paths`.
 */
import { withPolicies } from "../../client/policies.js";
import { type CallOptions, TableRuntime, type TransportOptions } from "../../client/runtime.js";
import type { Route } from "../../route-types.js";
import { relocate, type WebhookPaths } from "./table.js";

/** Options of a sender: where the consumer receives webhooks, and how calls behave. */
export interface SenderOptions<K extends string> extends TransportOptions {
  /** the consumer's base URL, where the receiver listens ("http://127.0.0.1:3000/webhooks") */
  readonly baseUrl: string;
  /** the paths the receiver was given (default: `/<key>` under the base URL) */
  readonly paths?: WebhookPaths<K>;
}

/** The engine of one sender: `send` posts the webhook with the given key. */
export class WebhookSender<K extends string> {
  readonly #runtime: TableRuntime;

  constructor(table: Readonly<Record<K, Route>>, options: SenderOptions<K>) {
    if (!/^https?:\/\//i.test(options.baseUrl))
      throw new TypeError(
        `baseUrl "${options.baseUrl}" is not an http(s) URL: give the consumer's, as "http://127.0.0.1:3000/webhooks"`,
      );
    this.#runtime = new TableRuntime(relocate(table, options.paths), () => "", withPolicies(options));
  }

  /** Sends the webhook `key` with `args` (headers, query, body); resolves to the answer's body. */
  send<R>(key: K, args: object | undefined, options?: CallOptions): Promise<R> {
    return this.#runtime.call<R>(key, args, options);
  }
}
