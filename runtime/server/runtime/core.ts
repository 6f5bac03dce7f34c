/**
 * The request pipeline, the same for every route and every transport, driven by the route's
 * entry in the route table:
 *
 *   security (401, 403) → content type (415; also a body the operation does not declare, never
 *   read) → body read within its limit (413) and decoded (400) → path, query, headers and body
 *   checked by the generated validators (400, every error) → the handler → its answer, checked
 *   against the contract when response checks are on (500).
 *
 * It knows no transport: it reads the request through the members of `IncomingRequest`, has the
 * transport read the body, and hands the transport the answer it decided (an `Outcome`) to write.
 * The Fastify server (pipeline.ts) and the MSW handlers (the msw entry) both serve through it.
 * Everything a route needs is prepared once; a request allocates only its input.
 */
import { mediaTypeEssence } from "../../media-types.js";
import type { Route, RouteContent, SequenceKind } from "../../route-types.js";
import {
  type ContentMatcher,
  compileContentMatcher,
  decodeBody,
  UNDECLARED_BODY,
  unsupportedMediaType,
} from "./content.js";
import type { IncomingRequest, Transport } from "./exchange.js";
import { type CookieReader, toRouterPath } from "./parameters.js";
import { problemOutcome } from "./problems.js";
import { InputReader, validationProblem } from "./request.js";
import { requestItems } from "./request-items.js";
import { checkedAsWhole } from "./request-whole.js";
import { compileResponder, type Responder } from "./responses.js";
import {
  Admission,
  type Authenticate,
  authenticateOf,
  compileSecurity,
  type SecurityCheck,
  type SecurityVerdict,
} from "./security.js";

/** The default limit of a JSON, form or text body: 1 MiB. */
export const DEFAULT_BODY_LIMIT = 1_048_576;

/** The default limit of an uploaded file (a multipart file or a binary body): 10 MiB. */
export const DEFAULT_FILE_SIZE_LIMIT = 10_485_760;

/** Any operation's handler, as the pipeline calls it: validated input in, answer out. */
export type RouteHandler = (input: never) => unknown;

/** Reads a multipart/form-data body into the form to validate (undefined: no part at all) and a function restoring its files. */
export type MultipartReader<Req = never> = (
  request: Req,
  content: RouteContent,
) => Promise<{ form: unknown; restore: (validated: unknown) => unknown }>;

/** What the pipeline needs besides the route and its handler. */
export interface CoreSettings<Req = never> {
  readonly authenticate: Authenticate<unknown> | undefined;
  /** the largest JSON, form or text body, in bytes */
  readonly bodyLimit: number;
  /** the largest file (a binary body or a multipart file), in bytes */
  readonly fileSizeLimit: number;
  /** check every answer against the contract */
  readonly validateResponses: boolean;
  /** reads the `Cookie` header (cookies.ts); needed by routes with cookie parameters */
  readonly cookies?: CookieReader;
  /** reads multipart/form-data bodies; without it they are read as bytes (and refused by the validator) */
  readonly multipart?: { readonly read: MultipartReader<Req> };
}

const CLOSE: Readonly<Record<string, string>> = { connection: "close" };

/** The body as it is: the items of a sequence are checked as they are read, not decoded before. */
function same(body: unknown): unknown {
  return body;
}

/** One route, prepared: every step of the pipeline with its route-specific data. */
export class RoutePlan<Req extends IncomingRequest, Res> {
  private readonly route: Route;
  private readonly handler: RouteHandler;
  private readonly owner: object;
  private readonly transport: Transport<Req, Res>;
  private readonly settings: CoreSettings<Req>;
  private readonly security: SecurityCheck | undefined;
  private readonly match: ContentMatcher;
  private readonly inputs: InputReader;
  private readonly respond: Responder;

  constructor(
    route: Route,
    key: string,
    picked: { handler: RouteHandler; owner: object },
    transport: Transport<Req, Res>,
    settings: CoreSettings<Req>,
  ) {
    this.route = route;
    this.handler = picked.handler;
    this.owner = picked.owner;
    this.transport = transport;
    this.settings = settings;
    // without a hook of its own, the one the handlers carry (the mock handlers')
    this.security = compileSecurity(route, settings.authenticate ?? authenticateOf(picked.owner));
    this.match = compileContentMatcher(route.body?.contents ?? []);
    this.inputs = new InputReader(route, toRouterPath(route.path), settings.cookies);
    this.respond = compileResponder(route, settings.validateResponses, key);
  }

  /** Serves one request: the answer goes to `response` through the transport. */
  handle(request: Req, response: Res): void {
    const verdict = this.security === undefined ? undefined : this.security(request);
    if (verdict === undefined) return this.receive(request, response, undefined);
    if (!(verdict instanceof Promise)) return this.admit(request, response, verdict);
    verdict.then(
      (late: SecurityVerdict) => this.admit(request, response, late),
      (error: unknown) => this.transport.fail(request, response, error),
    );
  }

  /** Goes on with the caller's principal, or answers the refusal. */
  private admit(request: Req, response: Res, verdict: SecurityVerdict): void {
    if (verdict === undefined) return this.receive(request, response, undefined);
    if (verdict instanceof Admission) return this.receive(request, response, verdict.principal);
    this.transport.send(request, response, problemOutcome(verdict));
  }

  private receive(request: Req, response: Res, principal: unknown): void {
    const body = this.route.body;
    const transport = this.transport;
    // a body the operation does not declare is refused, never read nor handed to the handler
    if (body === undefined && transport.hasContent(request))
      return transport.send(request, response, problemOutcome(UNDECLARED_BODY));
    if (body === undefined || !transport.hasBody(request))
      return this.run(request, response, principal, undefined, undefined);
    const header = request.headers["content-type"] as string | undefined;
    const content = this.match(header ?? "");
    if (content === undefined)
      return transport.send(request, response, problemOutcome(unsupportedMediaType(header, body.contents)));
    const sequence = content.sequence;
    if (sequence !== undefined) return this.receiveItems(request, response, principal, { ...content, sequence });
    const reader = this.settings.multipart?.read;
    if (
      reader !== undefined &&
      content.kind === "multipart" &&
      mediaTypeEssence(header ?? "") === "multipart/form-data"
    ) {
      reader(request, content).then(
        ({ form, restore }) => this.run(request, response, principal, content, form, restore),
        (error: unknown) => transport.fail(request, response, error),
      );
      return;
    }
    const limit = content.kind === "binary" ? this.settings.fileSizeLimit : this.settings.bodyLimit;
    transport.readBody(request, limit, (problem, raw) => {
      if (problem !== undefined)
        return transport.send(request, response, problemOutcome(problem, problem.status === 413 ? CLOSE : undefined));
      this.run(request, response, principal, content, raw, undefined);
    });
  }

  /**
   * A body that is a sequence of items: the handler is given them as they arrive, each checked
   * (request-items.ts), and the list of them once they end where a `schema` describes it (request-whole.ts).
   */
  private receiveItems(
    request: Req,
    response: Res,
    principal: unknown,
    content: RouteContent & { readonly sequence: SequenceKind },
  ): void {
    const validator = this.route.validators.bodyItems?.[content.mediaType];
    const contentType = (request.headers["content-type"] as string | undefined) ?? "";
    const limits = { bytes: this.settings.bodyLimit, contentType };
    const items = requestItems(this.transport.bodyChunks(request), content, validator, limits);
    const whole = this.route.validators.bodySequences?.[content.mediaType];
    this.run(request, response, principal, content, whole === undefined ? items : checkedAsWhole(items, whole), same);
  }

  private run(
    request: Req,
    response: Res,
    principal: unknown,
    content: RouteContent | undefined,
    body: unknown,
    restore?: (validated: unknown) => unknown,
  ): void {
    try {
      const decoded =
        content === undefined || restore !== undefined ? body : decodeBody(content.kind, body as Uint8Array);
      const input = this.inputs.read(request, content, decoded, principal);
      if (Array.isArray(input)) return this.transport.send(request, response, problemOutcome(validationProblem(input)));
      const answer = this.handler.call(
        this.owner,
        (restore === undefined ? input : { ...input, body: restore(input.body) }) as never,
      );
      if (answer instanceof Promise) {
        answer.then(
          (value: unknown) => this.answer(request, response, value),
          (error: unknown) => this.transport.fail(request, response, error),
        );
        return;
      }
      this.answer(request, response, answer);
    } catch (error) {
      this.transport.fail(request, response, error);
    }
  }

  private answer(request: Req, response: Res, answer: unknown): void {
    const outcome = this.respond(answer, request);
    if (!(outcome instanceof Promise)) return this.transport.send(request, response, outcome);
    outcome.then(
      (decided) => this.transport.send(request, response, decided),
      (error: unknown) => this.transport.fail(request, response, error),
    );
  }
}
