/** Hand-written route-table entries and validators, small enough to read in a test. */
import { answerReader } from "../../../../runtime/client/answers.js";
import { authEncoder } from "../../../../runtime/client/auth.js";
import { bodyEncoder } from "../../../../runtime/client/body.js";
import { deepObjectQueryEncoder } from "../../../../runtime/client/deep-object.js";
import { RequestValidationError } from "../../../../runtime/client/errors.js";
import { headerEncoder } from "../../../../runtime/client/headers.js";
import { parameterEncoder } from "../../../../runtime/client/parameters.js";
import { bodyKindOf } from "../../../../runtime/media-types.js";
import type {
  Route,
  RouteContent,
  RouteParameter,
  RouteSecurityScheme,
  Validator,
} from "../../../../runtime/route-types.js";
import type { ValidationError } from "../../../../runtime/validators/types.js";

/**
 * A route: GET /things answering 200 with JSON, no parameters, no body, no security, naming the
 * parameter (query and header too), body and credential encoders and the answer reader as a
 * generated route with parameters, a body other than JSON, schemes other than header API keys and
 * answers other than JSON does; `overrides` replace any of it.
 */
export function route(overrides: Partial<Route> = {}): Route {
  return {
    operationId: "getThings",
    method: "GET",
    path: "/things",
    pathParams: [],
    query: [],
    headers: [],
    responses: { "200": [content("application/json")] },
    security: [],
    validators: { body: {}, responses: {} },
    encoders: {
      parameters: parameterEncoder,
      query: deepObjectQueryEncoder,
      headers: headerEncoder,
      body: bodyEncoder,
      auth: authEncoder,
      answers: answerReader,
    },
    ...overrides,
  };
}

/** A content of a media type, its kind as the generator works it out. */
export function content(mediaType: string, binaryFields?: readonly string[]): RouteContent {
  const kind = bodyKindOf(mediaType);
  return binaryFields === undefined ? { mediaType, kind } : { mediaType, kind, binaryFields };
}

/** A query or header parameter: style form, exploded, optional, scalar unless `overrides` say otherwise. */
export function param(name: string, overrides: Partial<RouteParameter> = {}): RouteParameter {
  return { name, required: false, style: "form", explode: true, array: false, ...overrides };
}

/** An apiKey scheme read from a header, a query parameter or a cookie. */
export function apiKey(
  where: "header" | "query" | "cookie",
  name: string,
  scheme = `${where}Key`,
): RouteSecurityScheme {
  return { scheme, type: "apiKey", in: where, name };
}

/** An http scheme ("bearer", "basic", ...). */
export function http(httpScheme: string, scheme = httpScheme): RouteSecurityScheme {
  return { scheme, type: "http", httpScheme };
}

/** One validation error, as a generated validator reports it. */
export function failure(message: string, instancePath = ""): ValidationError {
  return { instancePath, schemaPath: "#/test", keyword: "test", params: {}, message };
}

/** A validator accepting everything, converted by `convert`. */
export function accepting(convert: (value: unknown) => unknown = (value) => value): Validator {
  return (value) => ({ valid: true, value: convert(value) });
}

/** A validator refusing everything with these messages. */
export function refusing(...messages: string[]): Validator {
  return () => ({ valid: false, errors: messages.map((message) => failure(message)) });
}

/** A validator of objects whose listed properties must be strings ("/name must be string"). */
export function stringProperties(...names: string[]): Validator {
  return (value) => {
    const object = typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
    const errors = names
      .filter((name) => typeof object[name] !== "string")
      .map((name) => failure(`/${name} must be string`, `/${name}`));
    return errors.length === 0 ? { valid: true, value } : { valid: false, errors };
  };
}

/**
 * A path filled by `fill`, or what refused it: the parameter missing (`{ missing }`) or a dot
 * segment (`{ dotSegment }`), read off the RequestValidationError thrown.
 */
export function filledOrRefused(fill: () => string): string | { missing: string } | { dotSegment: string } {
  try {
    return fill();
  } catch (error) {
    if (!(error instanceof RequestValidationError)) throw error;
    const [issue] = error.errors;
    if (issue?.keyword === "required") return { missing: String(issue.params.missingProperty) };
    const pointer = issue?.instancePath ?? "";
    return { dotSegment: pointer.slice(1).replaceAll("~1", "/").replaceAll("~0", "~") };
  }
}
