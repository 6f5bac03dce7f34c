/**
 * Path parameters of style simple whose schemas are scalars (strings, numbers, integers,
 * booleans), when they are the operation's only parameters: each written as its text,
 * percent-encoded. The route of such an operation names this encoder, not parameters.ts's, so a
 * page whose operations have no other parameters bundles neither the other styles nor the query
 * string. The filling of a path and its refusals (a parameter missing, a dot segment) are
 * parameters.ts's too.
 */
import type { ParameterEncoder } from "../route-types.js";
import { type RequestIssue, RequestValidationError } from "./errors.js";
import { EMPTY, own, scalar } from "./values.js";

/** Why a path cannot be filled: a parameter missing, or one that is a dot segment ("." or ".."). */
export type PathRefusal = { readonly missing: string } | { readonly dotSegment: string };

const PLACEHOLDER = /\{([^{}]+)\}/g;

/**
 * The path with each placeholder replaced by the text `text` gives its value; else the first
 * parameter that is missing, or whose text is "." or ".." (a dot segment, which URL normalisation
 * would resolve, sending the call to another path; its percent-encoded forms are resolved too).
 */
export function fillWith(
  path: string,
  values: Readonly<Record<string, unknown>>,
  text: (name: string, value: unknown) => string,
): string | PathRefusal {
  let refusal: PathRefusal | undefined;
  const filled = path.replace(PLACEHOLDER, (_placeholder, name: string) => {
    const value = own(values, name);
    if (value === undefined || value === null) refusal ??= { missing: name };
    else {
      const written = text(name, value);
      if (!isDotSegment(written)) return written;
      refusal ??= { dotSegment: name };
    }
    return "";
  });
  return refusal ?? filled;
}

/** "." or "..", written plainly or percent-encoded (".%2E"), as URL parsers resolve them. */
function isDotSegment(text: string): boolean {
  const plain = text.length <= 6 ? text.replace(/%2e/gi, ".") : text;
  return plain === "." || plain === "..";
}

/** The error of a path that cannot be filled: a parameter missing, or a dot segment ("." or ".."). */
export function pathRefusal(operationId: string, refusal: PathRefusal): RequestValidationError {
  const issue =
    "missing" in refusal
      ? {
          keyword: "required",
          instancePath: "",
          params: { missingProperty: refusal.missing },
          message: `must have required property '${refusal.missing}'`,
        }
      : dotSegmentIssue(`/${refusal.dotSegment.replaceAll("~", "~0").replaceAll("/", "~1")}`);
  return new RequestValidationError(operationId, [{ in: "path", schemaPath: `#/${issue.keyword}`, ...issue }]);
}

/** The issue of a path parameter at `pointer` that is a dot segment. */
function dotSegmentIssue(pointer: string): Omit<RequestIssue, "in" | "schemaPath"> {
  return {
    keyword: "dotSegment",
    instancePath: pointer,
    params: {},
    message: `${pointer} must not be "." or "..", which would change the path the request is sent to`,
  };
}

/** The values that are given, each as `text` gives it. */
export function textsOf(
  values: Readonly<Record<string, unknown>>,
  text: (value: unknown) => string,
): Record<string, unknown> {
  // fromEntries defines each as an own data property, "__proto__" too
  return Object.fromEntries(
    Object.entries(values)
      .filter((entry) => entry[1] !== undefined && entry[1] !== null)
      .map(([name, value]) => [name, text(value)]),
  );
}

/**
 * The encoder the route of each operation whose parameters are all scalar path parameters of
 * style simple names (`Route.encoders.parameters`): the path filled with each value's text
 * (`scalar`'s: a value of another type is written as scalar writes it, an object as JSON),
 * and checked as the server reads it back, the text of each.
 */
export const pathEncoder: ParameterEncoder = {
  urlOf: (route, base, authQuery) => (values) => {
    const path = fillWith(route.path, values.path ?? EMPTY, (_name, value) => encodeURIComponent(scalar(value)));
    if (typeof path !== "string") throw pathRefusal(route.operationId, path);
    return base + (authQuery === "" ? path : `${path}?${authQuery}`);
  },
  check: (route, values, _styles, collect) =>
    collect("path", route.validators.pathParams, textsOf(values.path ?? EMPTY, scalar)),
};
