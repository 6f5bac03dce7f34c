/**
 * Handlers made from prepared answers: what the mock server serves. Each operation answers the
 * same status and body on every call; one without a prepared answer answers 501. They carry their
 * `authenticate` hook, which accepts any non-empty key, so they serve as they are (in MSW handlers,
 * for one) where no hook is given.
 */
import { notImplemented } from "./problems.js";
import { type Authenticate, HANDLERS_AUTHENTICATE } from "./security.js";
import type { ResponseHeaders } from "./types.js";

/** A prepared answer: a status and its body (and headers, if any). */
export interface MockAnswer {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: ResponseHeaders;
}

/**
 * A handler per operation returning its prepared answer. The answers are data the generator
 * checked against the response schemas, so they are handed out as the handlers' declared types.
 */
export function answerWith<H>(answers: Readonly<Record<string, MockAnswer | undefined>>): H {
  const handlers: Record<string | typeof HANDLERS_AUTHENTICATE, unknown> = { [HANDLERS_AUTHENTICATE]: anyKey };
  for (const [key, answer] of Object.entries(answers)) {
    handlers[key] = answer === undefined ? () => notImplemented(key) : () => answer;
  }
  return handlers as H;
}

/** Any key the security check lets through (it refuses a missing or empty one itself). */
const anyKey: Authenticate = () => true;
