/**
 * Path parameters of style simple whose schemas are scalars (strings, numbers, integers,
 * booleans), when they are the operation's only parameters: each written as its text,
 * percent-encoded. The route of such an operation names this encoder, not parameters.ts's, so a
 * page whose operations have no other parameters bundles neither the other styles nor the query
 * string. The filling of a path and its refusals (a parameter missing, a dot segment) are
 * parameters.ts's too.
 */
import type { ParameterEncoder } from "../route-types.js";
import { RequestValidationError } from "./errors.js";
import { own, scalar, writeHeaderTexts } from "./values.js";

const PLACEHOLDER = /\{([^{}]+)\}/g;

/**
 * The path with each placeholder replaced by the text `text` gives its value. A call whose path
 * cannot be filled is refused (`pathRefusal`) at the first parameter, in the path's order, that
 * is missing or whose text is "." or ".." (a dot segment, which URL normalisation would resolve,
 * sending the call to another path; its percent-encoded forms, ".%2E", are resolved too).
 */
export function fillWith(
  operationId: string,
  path: string,
  values: Readonly<Record<string, unknown>>,
  text: (name: string, value: unknown) => string,
): string {
  return path.replace(PLACEHOLDER, (_placeholder, name: string) => {
    const value = own(values, name);
    const written = value === undefined || value === null ? undefined : text(name, value);
    if (written !== undefined && !/^(?:\.|%2e){1,2}$/i.test(written)) return written;
    throw pathRefusal(operationId, name, written === undefined);
  });
}

/**
 * The error of a path that cannot be filled: the parameter `name` missing (worded as the path's
 * validator words a missing required property), or a dot segment ("." or "..").
 */
export function pathRefusal(operationId: string, name: string, missing: boolean): RequestValidationError {
  const pointer = `/${name.replaceAll("~", "~0").replaceAll("/", "~1")}`;
  return new RequestValidationError(operationId, [
    missing
      ? {
          in: "path",
          instancePath: "",
          schemaPath: "#/required",
          keyword: "required",
          params: { missingProperty: name },
          message: `must have required property '${name}'`,
        }
      : {
          in: "path",
          instancePath: pointer,
          schemaPath: "#/dotSegment",
          keyword: "dotSegment",
          params: {},
          message: `${pointer} must not be "." or "..", which would change the path`,
        },
  ]);
}

/** The values that are given, each as `text` gives it. */
export function textsOf(
  values: Readonly<Record<string, unknown>>,
  text: (value: unknown) => string,
): Record<string, unknown> {
  // fromEntries defines each as an own data property, "__proto__" too
  return Object.fromEntries(
    Object.entries(values)
      .filter((entry) => entry[1] != null)
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
    const path = fillWith(route.operationId, route.path, values.path ?? {}, (_name, value) =>
      encodeURIComponent(scalar(value)),
    );
    return base + (authQuery ? `${path}?${authQuery}` : path);
  },
  check: (route, values, collect) => collect("path", route.validators.pathParams, textsOf(values.path ?? {}, scalar)),
  // the route declares no header or cookie parameters: any headers the call is given, as their text
  write: writeHeaderTexts,
};
