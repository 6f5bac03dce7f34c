/**
 * The webhook receiver on Fastify: each webhook of the table served under a prefix by the same
 * request pipeline as the API's operations (security, media type, body limits, the generated
 * validators, problem answers, answers checked against the contract), calling the consumer's
 * handler for it. The generated `registerWebhooks` binds it to the spec's webhook table.
 */
/// <reference types="node" />
import type { FastifyInstance } from "fastify";
import type { Route } from "../../route-types.js";
import { DEFAULT_BODY_LIMIT, DEFAULT_FILE_SIZE_LIMIT } from "../../server/runtime/core.js";
import { createNotFoundHandler } from "../../server/runtime/not-found.js";
import type { CookieReader } from "../../server/runtime/parameters.js";
import { mountRoutes } from "../../server/runtime/pipeline.js";
import type { Authenticate } from "../../server/runtime/security.js";
import type { RefusedBodyOptions } from "../../server/runtime/stop-reading.js";
import { pickWebhook, type ReceiverOptions, relocate, type WebhookPaths } from "./table.js";

/** Options of `registerWebhookRoutes`: a receiver's, and the prefix it serves under. */
export interface FastifyReceiverOptions<H, P = undefined> extends ReceiverOptions<H, P>, RefusedBodyOptions {
  /** the path every webhook is received under (default "/webhooks") */
  readonly prefix?: string;
}

/**
 * Registers every webhook of `table` on `app` under the prefix, in an encapsulated context (its own
 * content-type parsing and error handler), each with its handler: one missing is refused at once.
 * `cookies` reads the `Cookie` header, for a table whose webhooks have cookie parameters.
 */
export async function registerWebhookRoutes<K extends string, H extends object, P>(
  app: FastifyInstance,
  table: Readonly<Record<K, Route>>,
  options: FastifyReceiverOptions<H, P>,
  cookies?: CookieReader,
): Promise<void> {
  const routes = relocate(table, options.paths as WebhookPaths<K> | undefined);
  const prefix = options.prefix ?? "/webhooks";
  await app.register(
    async (scope) => {
      // a webhook's path with another method is a 405 naming the one it takes, as the API's paths are
      scope.setNotFoundHandler(createNotFoundHandler(Object.values<Route>(routes), prefix));
      mountRoutes(scope, routes, (key) => pickWebhook(options.handlers, key), {
        authenticate: options.authenticate as Authenticate<unknown> | undefined,
        bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
        fileSizeLimit: options.fileSizeLimit ?? DEFAULT_FILE_SIZE_LIMIT,
        refusedBodyLimit: options.refusedBodyLimit,
        validateResponses: options.validateResponses ?? true,
        ...(cookies !== undefined ? { cookies } : {}),
      });
    },
    { prefix },
  );
}
