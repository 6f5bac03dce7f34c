/**
 * The options of a client that holds every part of the engine (`createClient`, the webhook
 * sender) as the engine takes them: its retry options as a retry policy, its timeout as a timeout
 * policy, which such a client always has (a call may give its own `timeoutMs` when the client
 * gives none). `createBaseClient` is given the policies it uses, so a page bundles only those.
 */
import { type RetryOptions, type RetryPolicy, retrying } from "./retry.js";
import { type TimeoutPolicy, timingOut } from "./transport.js";

/** The options with `retry` and `timeoutMs` turned into the engine's policies. */
export function withPolicies<O extends { readonly retry?: RetryOptions; readonly timeoutMs?: number }>(
  options: O,
): Omit<O, "retry" | "timeoutMs"> & { readonly retry?: RetryPolicy; readonly timeout: TimeoutPolicy } {
  const { retry, timeoutMs, ...rest } = options;
  const timeout = timingOut(timeoutMs);
  return retry === undefined ? { ...rest, timeout } : { ...rest, retry: retrying(retry), timeout };
}
