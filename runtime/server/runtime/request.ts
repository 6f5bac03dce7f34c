/**
 * The handler's input: path parameters, query, headers and body, each checked by the operation's
 * generated validator (never Fastify's Ajv) and converted by it ("7" → 7). Every failure of every
 * part is collected (`allErrors`), so a 400 lists them all.
 */
import type { Route, RouteContent, Validator } from "../../route-types.js";
import type { ValidationError } from "../../validators/types.js";
import type { IncomingRequest, ServerRequest } from "./exchange.js";
import {
  type CookieReader,
  compileCookieReader,
  compileHeaderReader,
  compilePathReader,
  compileQueryReader,
  compileQuerystringReader,
  compileStyledPathReader,
  type ParameterReader,
  type QueryReader,
  type QuerystringReader,
  type RouterPath,
  type StyledPathReader,
} from "./parameters.js";
import { createProblem, type ProblemDetails, type ValidationIssue } from "./problems.js";

/** The input every handler receives. */
export interface RequestInput {
  readonly params: unknown;
  readonly query: unknown;
  readonly headers: unknown;
  /** the cookie parameters (an empty object for an operation without any) */
  readonly cookies: unknown;
  readonly body: unknown;
  /** who calls, as the authenticate hook named the caller (undefined when it did not) */
  readonly principal: unknown;
  readonly request: ServerRequest;
}

const ALL_ERRORS = { allErrors: true } as const;
const NO_INPUT: Readonly<Record<string, never>> = Object.freeze({});

/** Reads and validates the input of one route. */
export class InputReader {
  private readonly route: Route;
  private readonly readPath: ParameterReader;
  private readonly readStyledPath: StyledPathReader | undefined;
  private readonly readQuery: QueryReader | QuerystringReader;
  private readonly readHeaders: ParameterReader;
  private readonly readCookies: ParameterReader | undefined;
  private readonly bodyRequired: ValidationIssue | undefined;

  constructor(route: Route, path: RouterPath, cookies?: CookieReader) {
    this.route = route;
    this.readPath = compilePathReader(path);
    const styles = route.pathStyles;
    this.readStyledPath = styles === undefined ? undefined : compileStyledPathReader(route.path, styles);
    const querystring = route.querystring;
    this.readQuery =
      querystring === undefined ? compileQueryReader(route.query) : compileQuerystringReader(querystring);
    this.readHeaders = compileHeaderReader(route.headers);
    const declared = route.cookies ?? [];
    if (declared.length > 0 && cookies === undefined)
      throw new Error(
        `operation ${route.operationId} has cookie parameters, but no cookie reader was given: pass \`cookies: readCookies\` (runtime/cookies.ts) in the pipeline's settings`,
      );
    this.readCookies =
      declared.length > 0 && cookies !== undefined ? compileCookieReader(declared, cookies) : undefined;
    const body = route.body;
    this.bodyRequired = body?.required === true ? missingBodyIssue(body.pointer) : undefined;
  }

  /** The validated input, or every issue found. `content` is the media type the body came as. */
  read(
    request: IncomingRequest,
    content: RouteContent | undefined,
    body: unknown,
    principal?: unknown,
  ): RequestInput | ValidationIssue[] {
    const validators = this.route.validators;
    let issues: ValidationIssue[] | undefined;
    let params: unknown = NO_INPUT;
    let query: unknown = NO_INPUT;
    let headers: unknown = NO_INPUT;
    let cookies: unknown = NO_INPUT;
    if (validators.pathParams !== undefined) {
      const named = this.readPath(request.params);
      const styled = this.readStyledPath?.(named, request.url) ?? named;
      const result = validators.pathParams(styled, ALL_ERRORS);
      if (result.valid) params = result.value;
      else issues = collect(issues, "path", result.errors);
    }
    if (validators.query !== undefined) {
      const read = this.readQuery(request.url);
      const querystring = this.route.querystring;
      if (read === undefined && querystring !== undefined) {
        if (querystring.required) issues = [...(issues ?? []), missingQuerystringIssue(querystring.name)];
        else query = undefined;
      } else {
        const result = validators.query(read, ALL_ERRORS);
        if (result.valid) query = result.value;
        else issues = collect(issues, "query", result.errors);
      }
    }
    if (validators.headers !== undefined) {
      const result = validators.headers(this.readHeaders(request.headers), ALL_ERRORS);
      if (result.valid) headers = result.value;
      else issues = collect(issues, "header", result.errors);
    }
    if (validators.cookies !== undefined && this.readCookies !== undefined) {
      const result = validators.cookies(this.readCookies(request.headers), ALL_ERRORS);
      if (result.valid) cookies = result.value;
      else issues = collect(issues, "cookie", result.errors);
    }
    const validator = this.bodyValidator(content, body);
    let checked = body;
    if (body === undefined && this.bodyRequired !== undefined) issues = [...(issues ?? []), this.bodyRequired];
    else if (validator !== undefined) {
      const result = validator(body, ALL_ERRORS);
      if (result.valid) checked = result.value;
      else issues = collect(issues, "body", result.errors);
    }
    return issues !== undefined ? issues : { params, query, headers, cookies, body: checked, principal, request };
  }

  private bodyValidator(content: RouteContent | undefined, body: unknown): Validator | undefined {
    if (body === undefined || content === undefined) return undefined;
    const bodies = this.route.validators.body;
    return Object.hasOwn(bodies, content.mediaType) ? bodies[content.mediaType] : undefined;
  }
}

/** The issue of a required body that is missing (the same the client reports). */
function missingBodyIssue(pointer: string): ValidationIssue {
  return {
    in: "body",
    instancePath: "",
    schemaPath: `${pointer}/required`,
    keyword: "required",
    params: {},
    message: "is required",
  };
}

/** The issue of a required `in: querystring` parameter whose query string is empty. */
function missingQuerystringIssue(name: string): ValidationIssue {
  return {
    in: "query",
    instancePath: "",
    schemaPath: "#/required",
    keyword: "required",
    params: { missingProperty: name },
    message: `must have the query string "${name}"`,
  };
}

function collect(
  issues: ValidationIssue[] | undefined,
  where: ValidationIssue["in"],
  errors: readonly ValidationError[],
): ValidationIssue[] {
  const list = issues ?? [];
  for (const { instancePath, schemaPath, keyword, params, message } of errors)
    list.push({ in: where, instancePath, schemaPath, keyword, params, message });
  return list;
}

/** The 400 problem listing every issue; its detail is the first ("body/name must be ..."). */
export function validationProblem(issues: readonly ValidationIssue[]): ProblemDetails {
  const first = issues[0];
  const text =
    first === undefined
      ? "the request is not valid"
      : `${first.in}${first.message.startsWith("/") ? "" : " "}${first.message}`;
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : "";
  return createProblem("validation", `${text}${more}`, issues);
}
