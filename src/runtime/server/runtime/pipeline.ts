/**
 * The request pipeline, the same for every route and driven by its route-table entry:
 *
 *   security (401, 403) → content type (415) → body read within its limit (413) and decoded
 *   (400) → path, query, headers and body checked by the generated validators (400, every error)
 *   → the handler → its answer, checked against the contract when response checks are on (500).
 *
 * Everything a route needs is prepared once, when it is mounted; a request allocates only its
 * input. Fastify only routes: no JSON schema is attached to any route, so its Ajv never runs, and
 * the content-type parser hands the unread body stream over, so the body is read after the
 * security check and with the route's own limits.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { mediaTypeEssence } from "../../media-types.js";
import type { Route, RouteContent } from "../../route-types.js";
import { type ContentMatcher, compileContentMatcher, decodeBody, hasBody, readBody, unsupportedMediaType } from "./content.js";
import { handleError } from "./errors.js";
import { toRouterPath } from "./parameters.js";
import { type ProblemDetails, sendProblem } from "./problems.js";
import { InputReader, validationProblem } from "./request.js";
import { compileResponder, type Responder } from "./responses.js";
import { Admission, type Authenticate, compileSecurity, type SecurityCheck, type SecurityVerdict } from "./security.js";

/** Any operation's handler, as the pipeline calls it: validated input in, answer out. */
export type RouteHandler = (input: never) => unknown;

/** Reads a multipart/form-data body into the form to validate (undefined: no part at all) and a function restoring its files. */
export type MultipartReader = (request: FastifyRequest, content: RouteContent) => Promise<{ form: unknown; restore: (validated: unknown) => unknown }>;

/** multipart/form-data support: the body reader, and a child scope with the multipart plugin. */
export interface MultipartSupport {
  readonly read: MultipartReader;
  /** registers a child of `scope` able to read multipart bodies, and mounts routes on it */
  readonly scope: (scope: FastifyInstance, mount: (child: FastifyInstance) => void) => void;
}

/** What the pipeline needs besides the route table and the handlers. */
export interface PipelineSettings {
  readonly authenticate: Authenticate<unknown> | undefined;
  /** the largest JSON, form or text body, in bytes */
  readonly bodyLimit: number;
  /** the largest file (a binary body or a multipart file), in bytes */
  readonly fileSizeLimit: number;
  /** check every answer against the contract */
  readonly validateResponses: boolean;
  /** present when some operation takes multipart/form-data */
  readonly multipart?: MultipartSupport;
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
  const passStream = (_request: FastifyRequest, payload: unknown, done: (error: null, body: unknown) => void): void => done(null, payload);
  for (const mediaType of declaredMediaTypes(Object.values<Route>(table))) scope.addContentTypeParser(mediaType, passStream);
  scope.addContentTypeParser("*", passStream);
  // No route here carries a JSON schema; should one be added (by a hook), Fastify's Ajv still
  // does not run: the generated validators are the only ones.
  scope.setValidatorCompiler(() => () => true);
  scope.setErrorHandler(handleError);
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
  if (multipart !== undefined && keys.some(usesMultipart)) multipart.scope(scope, (child) => mount(child, keys.filter(usesMultipart)));
}

function mountRoute(scope: FastifyInstance, key: string, route: Route, picked: { handler: RouteHandler; owner: object } | undefined, settings: PipelineSettings, mounted: Set<string>): void {
  if (picked === undefined || typeof picked.handler !== "function") throw new Error(`no handler for operation ${key}`);
  const path = toRouterPath(route.path);
  const id = `${route.method} ${path.url}`;
  if (mounted.has(id)) {
    scope.log.warn(`operation ${key} is not served: another operation already serves ${id}`);
    return;
  }
  mounted.add(id);
  const plan = new RoutePlan(route, key, picked.handler, picked.owner, settings);
  scope.route({ method: route.method, url: path.url, handler: (request, reply) => plan.handle(request, reply) });
}

/** The exact media types of every request body (ranges and multipart/form-data left out). */
function declaredMediaTypes(routes: readonly Route[]): string[] {
  const essences = routes.flatMap((route) => route.body?.contents ?? []).map((content) => mediaTypeEssence(content.mediaType));
  return [...new Set(essences)].filter((essence) => !essence.includes("*") && essence !== "multipart/form-data" && /^[\w.+-]+\/[\w.+-]+$/.test(essence)).sort();
}

function takesMultipart(route: Route): boolean {
  return route.body?.contents.some((content) => mediaTypeEssence(content.mediaType) === "multipart/form-data") === true;
}

/** One route, prepared: every step of the pipeline with its route-specific data. */
class RoutePlan {
  private readonly route: Route;
  private readonly handler: RouteHandler;
  private readonly owner: object;
  private readonly settings: PipelineSettings;
  private readonly security: SecurityCheck | undefined;
  private readonly match: ContentMatcher;
  private readonly inputs: InputReader;
  private readonly respond: Responder;

  constructor(route: Route, key: string, handler: RouteHandler, owner: object, settings: PipelineSettings) {
    this.route = route;
    this.handler = handler;
    this.owner = owner;
    this.settings = settings;
    this.security = compileSecurity(route, settings.authenticate);
    this.match = compileContentMatcher(route.body?.contents ?? []);
    this.inputs = new InputReader(route, toRouterPath(route.path));
    this.respond = compileResponder(route, settings.validateResponses, key);
  }

  handle(request: FastifyRequest, reply: FastifyReply): void {
    const verdict = this.security === undefined ? undefined : this.security(request);
    if (verdict === undefined) return this.receive(request, reply, undefined);
    if (!(verdict instanceof Promise)) return this.admit(request, reply, verdict);
    verdict.then(
      (late: SecurityVerdict) => this.admit(request, reply, late),
      (error: unknown) => handleError(error, request, reply),
    );
  }

  /** Goes on with the caller's principal, or answers the refusal. */
  private admit(request: FastifyRequest, reply: FastifyReply, verdict: SecurityVerdict): void {
    if (verdict === undefined) return this.receive(request, reply, undefined);
    if (verdict instanceof Admission) return this.receive(request, reply, verdict.principal);
    sendProblem(reply, verdict);
  }

  private receive(request: FastifyRequest, reply: FastifyReply, principal: unknown): void {
    const body = this.route.body;
    if (body === undefined || !hasBody(request)) return this.run(request, reply, principal, undefined, undefined);
    const header = request.headers["content-type"];
    const content = this.match(header ?? "");
    if (content === undefined) return sendProblem(reply, unsupportedMediaType(header, body.contents));
    const reader = this.settings.multipart?.read;
    if (reader !== undefined && content.kind === "multipart" && mediaTypeEssence(header ?? "") === "multipart/form-data") {
      reader(request, content).then(
        ({ form, restore }) => this.run(request, reply, principal, content, form, restore),
        (error: unknown) => handleError(error, request, reply),
      );
      return;
    }
    const limit = content.kind === "binary" ? this.settings.fileSizeLimit : this.settings.bodyLimit;
    readBody(request, limit, (problem, raw) => {
      if (problem !== undefined) return this.refuse(reply, problem);
      this.run(request, reply, principal, content, raw, undefined);
    });
  }

  private refuse(reply: FastifyReply, problem: ProblemDetails): void {
    if (problem.status === 413) reply.header("connection", "close");
    sendProblem(reply, problem);
  }

  private run(request: FastifyRequest, reply: FastifyReply, principal: unknown, content: RouteContent | undefined, body: unknown, restore?: (validated: unknown) => unknown): void {
    try {
      const decoded = content === undefined || restore !== undefined ? body : decodeBody(content.kind, body as Buffer);
      const input = this.inputs.read(request, content, decoded, principal);
      if (Array.isArray(input)) return sendProblem(reply, validationProblem(input));
      const answer = this.handler.call(this.owner, (restore === undefined ? input : { ...input, body: restore(input.body) }) as never);
      if (answer instanceof Promise) {
        answer.then(
          (value: unknown) => this.respond(value, request, reply),
          (error: unknown) => handleError(error, request, reply),
        );
        return;
      }
      this.respond(answer, request, reply);
    } catch (error) {
      handleError(error, request, reply);
    }
  }
}
