/**
 * Reading answers: a success body as the route declares it for the status (JSON parsed, text as a
 * string, other media types as a Blob, no content as undefined), checked by the client's answer
 * check when it has one (answer-check.ts); an error answer becomes an ApiError with its parsed body. The kind of a
 * body other than JSON is the answer reader's to tell (answers.ts), which the route of an
 * operation with such answers names: a route whose answers are JSON reads JSON here, or text for a
 * status it does not declare whose media type is not JSON.
 */

import { isJsonMediaType } from "../media-types.js";
import type { BodyKind, CallRoute, RouteContent } from "../route-types.js";
import type { AnswerCheck } from "./answer-check.js";
import { ApiError, ResponseValidationError } from "./errors.js";

/** How a body is read: by its kind, or not at all. */
export type ReadKind = BodyKind | "none";

/** The route's declared contents for a status: exact, then its range ("4XX"), then default. */
export function declaredContents(route: CallRoute, status: number): readonly RouteContent[] | undefined {
  return byStatus(route.responses, status);
}

/** The entry of a status in a record keyed by status: exact, then its range ("4XX"), then default. */
export function byStatus<T>(record: Readonly<Record<string, T>>, status: number): T | undefined {
  return record[status] ?? record[`${Math.floor(status / 100)}XX`] ?? record["default"];
}

/** The body of a 2xx answer, checked by `check` when there is one. */
export async function readSuccess(route: CallRoute, response: Response, check?: AnswerCheck): Promise<unknown> {
  const contents = byStatus(route.responses, response.status);
  const kind = readKind(route, response, contents);
  // none's body is cancelled (its connection released), a binary one read as a Blob, the others as text
  const read =
    kind === "none" ? await response.body?.cancel() : kind === "binary" ? await response.blob() : await response.text();
  let body: unknown = read;
  if (kind === "json")
    try {
      body = read === "" ? undefined : JSON.parse(read as string);
    } catch {
      const issue = { instancePath: "", schemaPath: "", keyword: "json", params: {}, message: "is not valid JSON" };
      throw new ResponseValidationError(route.operationId, response, [issue], read);
    }
  check?.(route, response, contents, kind, body);
  return body;
}

/** The ApiError of a non-2xx answer, its body read as JSON when it is JSON, else as text. */
export async function readFailure(route: CallRoute, response: Response): Promise<ApiError> {
  const json = isJson(response);
  let body: unknown;
  try {
    const text = await response.text();
    body = text === "" ? undefined : json ? parseOrText(text) : text;
  } catch {
    // a body that cannot be read is left undefined
  }
  return new ApiError(route.operationId, response, body);
}

/**
 * How a success body is read: none for a status without content (or a HEAD); else as the route's
 * answer reader says, when it names one; else JSON for a declared status, and JSON or text by its
 * media type for another. (A 304 is not a success: its ApiError reads no body.)
 */
function readKind(route: CallRoute, response: Response, contents: readonly RouteContent[] | undefined): ReadKind {
  const status = response.status;
  const reader = route.encoders?.answers;
  return status === 204 || status === 205 || route.method === "HEAD" || contents?.length === 0
    ? "none"
    : reader !== undefined
      ? reader.kindOf(response, contents)
      : contents !== undefined || isJson(response)
        ? "json"
        : "text";
}

/** Whether an answer's media type is JSON's (none, read as the empty text, is not). */
function isJson(response: Response): boolean {
  return isJsonMediaType(response.headers.get("content-type") ?? "");
}

/** The options of a validator that reports every error (the client reports them all). */
export const ALL_ERRORS = { allErrors: true } as const;

function parseOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
