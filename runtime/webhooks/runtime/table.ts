/**
 * The webhook table as a receiver and a sender use it. Where webhooks are received: The document says what a webhook carries, not where it arrives:
 * the consumer chooses the URL it gives the provider. Each entry of a webhook table is received at
 * `/<its key>` under a base the consumer chooses, unless `paths` gives it another path; the
 * receiver and the sender take the same `paths`, so a test sends where the receiver listens.
 */
import type { Route } from "../../route-types.js";
import type { RouteHandler } from "../../server/runtime/core.js";
import type { Authenticate } from "../../server/runtime/security.js";

/** A path of one's own for some webhooks, by key: "/adyen/notify", or "" for the base itself. */
export type WebhookPaths<K extends string> = Partial<Readonly<Record<K, string>>>;

/** The table with each webhook at the path `paths` gives it; a path that cannot be one is refused, saying which. */
export function relocate<K extends string>(
  table: Readonly<Record<K, Route>>,
  paths: WebhookPaths<K> | undefined,
): Readonly<Record<K, Route>> {
  if (paths === undefined) return table;
  const out: Record<K, Route> = { ...table };
  for (const key of Object.keys(paths) as K[]) {
    const path = paths[key];
    if (path === undefined) continue;
    if (!Object.hasOwn(table, key))
      throw new TypeError(`paths.${key}: no webhook is named "${key}" (known: ${Object.keys(table).join(", ")})`);
    if (path !== "" && (!path.startsWith("/") || /[{}?#]/.test(path)))
      throw new TypeError(
        `paths.${key}: "${path}" is not a path: give one starting with "/" and without "{", "}", "?" or "#" (or "" for the base itself)`,
      );
    out[key] = { ...table[key], path };
  }
  return out;
}

/** What a receiver takes, whatever its transport: `H` is the handlers' type, `P` the principal. */
export interface ReceiverOptions<H, P = undefined> {
  /** one handler per webhook, keyed as the table is */
  readonly handlers: H;
  /** decides whether the credential a webhook presents is valid (needed when a webhook is secured) */
  readonly authenticate?: Authenticate<P>;
  /** a path of one's own for some webhooks (default: `/<key>` under the prefix) */
  readonly paths?: WebhookPaths<keyof H & string>;
  /** the largest JSON, form or text body in bytes (default 1 MiB) */
  readonly bodyLimit?: number;
  /** the largest binary body in bytes (default 10 MiB) */
  readonly fileSizeLimit?: number;
  /** check every answer against the contract (default true) */
  readonly validateResponses?: boolean;
}

/** The handler of `key`, with the object it is called on. */
export function pickWebhook(handlers: object, key: string): { handler: RouteHandler; owner: object } | undefined {
  const handler = (handlers as Readonly<Record<string, RouteHandler | undefined>>)[key];
  return handler === undefined ? undefined : { handler, owner: handlers };
}
