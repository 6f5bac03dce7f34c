/**
 * The Fastify transport of the request pipeline (core.ts): routes mounted on a Fastify scope, each
 * served by its `RoutePlan`, with Fastify's request handed to it as it is and the answer written
 * with the reply.
 *
 * Fastify only routes: no JSON schema is attached to any route, so its Ajv never runs, and the
 * content-type parser hands the unread body stream over, so the body is read after the security
 * check and with the route's own limits.
 */
import { METHODS } from "node:http";
import { Readable } from "node:stream";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { mediaTypeEssence } from "../../media-types.js";
import type { Route } from "../../route-types.js";
import { bodyChunks, readBody } from "./body-stream.js";
import { carriesContent, hasBody } from "./content.js";
import {
  type MultipartReader as CoreMultipartReader,
  type CoreSettings,
  type RouteHandler,
  RoutePlan,
} from "./core.js";
import { handleError } from "./errors.js";
import type { Outcome, Transport } from "./exchange.js";
import { toRouterPath } from "./parameters.js";
import { writeOutcome } from "./reply.js";
import { stopReadingUnread, stopsReading } from "./stop-reading.js";

export type { RouteHandler };

/** A multipart/form-data reader of Fastify requests. */
export type MultipartReader = CoreMultipartReader<FastifyRequest>;

/** multipart/form-data support: the body reader, and a child scope with the multipart plugin. */
export interface MultipartSupport {
  readonly read: MultipartReader;
  /** registers a child of `scope` able to read multipart bodies, and mounts routes on it */
  readonly scope: (scope: FastifyInstance, mount: (child: FastifyInstance) => void) => void;
}

/** What the pipeline needs besides the route table and the handlers. */
export interface PipelineSettings extends CoreSettings<FastifyRequest> {
  /** present when some operation takes multipart/form-data */
  readonly multipart?: MultipartSupport;
  /** the most of a body read after an answer given before it arrived whole (stop-reading.ts) */
  readonly refusedBodyLimit?: number;
}

/** The Fastify transport: the request as it is, the body from its stream, the answer through the reply. */
const FASTIFY: Transport<FastifyRequest, FastifyReply> = {
  hasBody,
  hasContent: carriesContent,
  readBody,
  bodyChunks,
  send: (_request, reply, outcome) => sendOutcome(reply, outcome),
  fail: (request, reply, error) => handleError(error, request, reply),
};

/** Writes a decided answer with Fastify's reply; a streamed body as it is read, with the network's backpressure. */
export function sendOutcome(reply: FastifyReply, outcome: Outcome): void {
  const body = outcome.body;
  if (typeof body === "object" && !(body instanceof Uint8Array)) writeOutcome(reply, outcome, Readable.from(body));
  else writeOutcome(reply, outcome);
}

/**
 * Registers every route of the table on `scope` (an encapsulated context: its content-type
 * parsers and error handler are replaced). Routes taking multipart/form-data are mounted in a
 * child scope with the multipart plugin, whose per-request hooks the other routes do without.
 * Two operations on the same method and router path cannot both be served: the first (by
 * operationId) is, the other is reported.
 */
export function mountRoutes<K extends string>(
  scope: FastifyInstance,
  table: Readonly<Record<K, Route>>,
  pick: (key: K) => { handler: RouteHandler; owner: object } | undefined,
  settings: PipelineSettings,
): void {
  scope.removeAllContentTypeParsers();
  // The parser only hands the body stream over. It is registered for each media type the table
  // declares, so Fastify finds (and caches) it directly, and for any other type as a catch-all.
  const passStream = (_request: FastifyRequest, payload: unknown, done: (error: null, body: unknown) => void): void =>
    done(null, payload);
  for (const mediaType of declaredMediaTypes(Object.values<Route>(table)))
    scope.addContentTypeParser(mediaType, passStream);
  scope.addContentTypeParser("*", passStream);
  // No route here carries a JSON schema; should one be added (by a hook), Fastify's Ajv still
  // does not run: the generated validators are the only ones.
  scope.setValidatorCompiler(() => () => true);
  scope.setErrorHandler(handleError);
  // the hook of the instance the scope is part of, when it has one (buildServer's), serves it too
  if (!stopsReading(scope)) scope.addHook("onSend", stopReadingUnread(settings.refusedBodyLimit));
  const mounted = new Set<string>();
  const mount = (target: FastifyInstance, keys: readonly K[]): void => {
    for (const key of keys) mountRoute(target, key, table[key], pick(key), settings, mounted);
  };
  const keys = Object.keys(table).sort() as K[];
  const multipart = settings.multipart;
  const usesMultipart = (key: K): boolean => multipart !== undefined && takesMultipart(table[key]);
  mount(
    scope,
    keys.filter((key) => !usesMultipart(key)),
  );
  if (multipart !== undefined && keys.some(usesMultipart))
    multipart.scope(scope, (child) => mount(child, keys.filter(usesMultipart)));
}

function mountRoute(
  scope: FastifyInstance,
  key: string,
  route: Route,
  picked: { handler: RouteHandler; owner: object } | undefined,
  settings: PipelineSettings,
  mounted: Set<string>,
): void {
  if (picked === undefined || typeof picked.handler !== "function") throw new Error(`no handler for operation ${key}`);
  const path = toRouterPath(route.path);
  const id = `${route.method} ${path.url}`;
  if (mounted.has(id)) {
    scope.log.warn(`operation ${key} is not served: another operation already serves ${id}`);
    return;
  }
  if (!acceptsMethod(scope, route.method, key)) return;
  mounted.add(id);
  const plan = new RoutePlan(route, key, picked, FASTIFY, settings);
  scope.route({ method: route.method, url: path.url, handler: (request, reply) => plan.handle(request, reply) });
}

/**
 * Whether Fastify can route a method: its own (QUERY among them), or another Node's HTTP parser
 * reads (`http.METHODS`: PURGE, COPY, LOCK, ...), which is added to Fastify's, with a body. Node's
 * parser refuses any other method before a request reaches Fastify (400, "Invalid method"), so an
 * operation of such a method (an OpenAPI 3.2 `additionalOperations` key) is not served, and said so.
 */
function acceptsMethod(scope: FastifyInstance, method: string, key: string): boolean {
  if (scope.supportedMethods.includes(method)) return true;
  if (!METHODS.includes(method)) {
    scope.log.warn(`operation ${key} is not served: Node's HTTP parser refuses the method ${method}`);
    return false;
  }
  scope.addHttpMethod(method, { hasBody: true });
  return true;
}

/** The exact media types of every request body (ranges and multipart/form-data left out). */
function declaredMediaTypes(routes: readonly Route[]): string[] {
  const essences = routes
    .flatMap((route) => route.body?.contents ?? [])
    .map((content) => mediaTypeEssence(content.mediaType));
  return [...new Set(essences)]
    .filter(
      (essence) => !essence.includes("*") && essence !== "multipart/form-data" && /^[\w.+-]+\/[\w.+-]+$/.test(essence),
    )
    .sort();
}

function takesMultipart(route: Route): boolean {
  return route.body?.contents.some((content) => mediaTypeEssence(content.mediaType) === "multipart/form-data") === true;
}
