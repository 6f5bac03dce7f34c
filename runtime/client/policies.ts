/**
 * The options of a client that holds every part of the engine (`createClient`, the webhook
 * sender) as the engine takes them: its retry options as a retry policy, its timeout as a timeout
 * policy, which such a client always has (a call may give its own `timeoutMs` when the client
 * gives none), and `validateResponses` as an answer check. `createBaseClient` is given the
 * policies it uses, so a page bundles only those.
 */

import type { ResponseValidators } from "../route-types.js";
import { type AnswerCheck, checkingAnswers } from "./answer-check.js";
import { type RetryOptions, type RetryPolicy, retrying } from "./retry.js";
import { type TimeoutPolicy, timingOut } from "./transport.js";

/** What `withPolicies` turns into policies. */
interface PolicyOptions {
  readonly retry?: RetryOptions;
  readonly timeoutMs?: number;
  readonly validateResponses?: boolean | ResponseValidators;
}

/**
 * The options with `retry`, `timeoutMs` and `validateResponses` turned into the engine's policies;
 * `validators` are the answers' validators a `validateResponses: true` checks against where a
 * route has none of its own (the call entries of the TanStack Query options).
 */
export function withPolicies<O extends PolicyOptions>(
  options: O,
  validators?: ResponseValidators,
): Omit<O, keyof PolicyOptions> & {
  readonly retry?: RetryPolicy;
  readonly timeout: TimeoutPolicy;
  readonly validateResponses?: AnswerCheck;
} {
  const { retry, timeoutMs, validateResponses, ...rest } = options;
  const check = validateResponses === true ? validators : validateResponses;
  return {
    ...rest,
    timeout: timingOut(timeoutMs),
    ...(retry === undefined ? {} : { retry: retrying(retry) }),
    ...(check === undefined || check === false ? {} : { validateResponses: checkingAnswers(check) }),
  };
}
