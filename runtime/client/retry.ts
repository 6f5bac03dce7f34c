/**
 * Retries: when a failed call is tried again and after how long (exponential backoff with full
 * jitter, Retry-After honoured), and the wait itself. The engine takes a policy
 * (`retrying(options)`), so a page that does not retry bundles none of this.
 */

import { ApiNetworkError } from "./errors.js";

/** Opt-in retries with exponential backoff and full jitter. */
export interface RetryOptions {
  /** how many times a failed call is tried again (0: never) */
  readonly retries: number;
  /** the first backoff's upper bound, doubled for each further retry (default 100) */
  readonly minDelayMs?: number;
  /** the longest backoff (default 5000) */
  readonly maxDelayMs?: number;
  /** the longest wait a `Retry-After` header can ask for; longer ones are capped (default 30000) */
  readonly maxRetryAfterMs?: number;
  /** the random source of the jitter, in [0, 1) (default Math.random) */
  readonly random?: () => number;
}

/**
 * Sends a call's attempts: `attempt(wait)` sends one once `wait` is over (it rejects with the
 * call's failure: an `ApiNetworkError` when the network failed, the call's abort or timeout when
 * one cuts the wait short); after a network failure or an answer that is retried, the policy
 * tries again after a wait, and resolves with the last answer or rejects with the last failure.
 * `method` is the call's, `signal` aborts its waits. `createBaseClient` takes one, so a page that
 * does not retry does not bundle the retries.
 */
export type RetryPolicy = (
  attempt: (wait?: Promise<void>) => Promise<Response>,
  method: string,
  signal: AbortSignal | undefined,
) => Promise<Response>;

/** The retry policy of the options: exponential backoff with full jitter, Retry-After honoured. */
export function retrying(retry: RetryOptions): RetryPolicy {
  return async (attempt, method, signal) => {
    const idempotent = isIdempotent(method);
    let wait: Promise<void> | undefined;
    for (let count = 0; ; count++) {
      let response: Response;
      try {
        response = await attempt(wait);
      } catch (failure) {
        const delay = failure instanceof ApiNetworkError ? retryDelay(retry, count, idempotent, undefined) : undefined;
        if (delay === undefined) throw failure;
        wait = pause(delay, signal);
        continue;
      }
      const delay = response.ok ? undefined : retryDelay(retry, count, idempotent, response);
      if (delay === undefined) return response;
      // the answer is not read: its connection is released before the wait
      await response.body?.cancel().catch(ignore);
      wait = pause(delay, signal);
    }
  };
}

/**
 * How long to wait before attempt `attempt + 1`, or undefined for no retry. Idempotent methods are
 * retried after network failures and 5xx/429 answers; any method after a 429/503 answer that
 * carries Retry-After.
 */
export function retryDelay(
  retry: RetryOptions | undefined,
  attempt: number,
  idempotent: boolean,
  response: Response | undefined,
): number | undefined {
  if (retry === undefined || attempt >= retry.retries) return undefined;
  if (response === undefined) return idempotent ? backoff(retry, attempt) : undefined;
  const status = response.status;
  if (status === 429 || status === 503) {
    const asked = retryAfter(response.headers.get("retry-after"));
    if (asked !== undefined) return Math.min(asked, retry.maxRetryAfterMs ?? 30_000);
  }
  return idempotent && (status >= 500 || status === 429) ? backoff(retry, attempt) : undefined;
}

/** Full jitter: a random wait between 0 and min(maxDelay, minDelay * 2^attempt). */
function backoff(retry: RetryOptions, attempt: number): number {
  const ceiling = Math.min(retry.maxDelayMs ?? 5_000, (retry.minDelayMs ?? 100) * 2 ** attempt);
  return Math.floor((retry.random ?? Math.random)() * ceiling);
}

const DAY = "(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)";
const MONTH = "(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)";
const TIME = "\\d{2}:\\d{2}:\\d{2}";
/** The HTTP-date forms of RFC 9110, 5.6.7: IMF-fixdate, and the obsolete RFC 850 and asctime dates. */
const IMF_FIXDATE = new RegExp(`^${DAY}, \\d{2} ${MONTH} \\d{4} ${TIME} GMT$`);
const RFC850_DATE = new RegExp(`^(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day, \\d{2}-${MONTH}-\\d{2} ${TIME} GMT$`);
const ASCTIME_DATE = new RegExp(`^${DAY} ${MONTH} (?: \\d|\\d{2}) ${TIME} \\d{4}$`);

/** Retry-After as milliseconds: delay-seconds or an HTTP date; undefined when absent or invalid. */
export function retryAfter(value: string | null): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = httpDate(text);
  return date === undefined ? undefined : Math.max(0, date - Date.now());
}

/** An HTTP date as epoch milliseconds; undefined for any other text (Date.parse alone takes "1.5" or "-1"). */
function httpDate(text: string): number | undefined {
  // an asctime date names no zone, but is in GMT: Date.parse would read it as local time
  const parsable =
    IMF_FIXDATE.test(text) || RFC850_DATE.test(text) ? text : ASCTIME_DATE.test(text) ? `${text} GMT` : undefined;
  const date = parsable === undefined ? Number.NaN : Date.parse(parsable);
  return Number.isNaN(date) ? undefined : date;
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts (a call's timeout or its caller). */
export function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (signal === undefined) return new Promise((resolve) => setTimeout(resolve, ms));
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

const IDEMPOTENT = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE", "TRACE"]);

/** Whether a method may be repeated without changing the outcome (RFC 9110, 9.2.2). */
export function isIdempotent(method: string): boolean {
  return IDEMPOTENT.has(method);
}

function ignore(): void {}
