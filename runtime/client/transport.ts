/**
 * Timeouts: a policy the engine is given (`timingOut(ms)`), which gives each call with a timeout
 * its own signal; the waits between retries are retry.ts's, and listen to the same signal. A page
 * whose client has no timeout policy bundles none of this: its calls send the caller's signal as
 * it is. The caller's signal is forwarded into the timeout's controller (no AbortSignal.any
 * needed, so it works wherever AbortController does) and the forwarding is removed when the call
 * ends.
 */
import { ApiTimeoutError } from "./errors.js";

/**
 * How calls time out: given the caller's signal and the call's own timeout (`timeoutMs` of its
 * options, undefined when it gives none), the scope of a call that has a timeout, or undefined for
 * one that has none (Infinity is none). `timingOut(ms)` makes one.
 */
export type TimeoutPolicy = (caller: AbortSignal | undefined, timeoutMs: number | undefined) => CallScope | undefined;

/**
 * The timeout policy of a client: each call may take at most `timeoutMs`, retries and their waits
 * included, unless it gives its own `timeoutMs` (Infinity: none); without `timeoutMs`, only calls
 * that give theirs time out.
 */
export function timingOut(timeoutMs?: number): TimeoutPolicy {
  return (caller, ms = timeoutMs) => (ms !== undefined && Number.isFinite(ms) ? new CallScope(caller, ms) : undefined);
}

/** The cancellation of one call with a timeout: the signal fetch and retry waits listen to. */
export class CallScope {
  // declared and set by the constructor: a field declaration would be code in every page
  declare readonly caller: AbortSignal | undefined;
  declare readonly timeoutMs: number;
  declare readonly signal: AbortSignal;
  timedOut = false;
  readonly #controller = new AbortController();
  readonly #timer: ReturnType<typeof setTimeout>;

  constructor(caller: AbortSignal | undefined, timeoutMs: number) {
    this.caller = caller;
    this.timeoutMs = timeoutMs;
    this.signal = this.#controller.signal;
    this.#timer = setTimeout(expire, timeoutMs, this);
    if (caller?.aborted) this.#controller.abort(caller.reason);
    else caller?.addEventListener("abort", this);
  }

  /** Forwards the caller's abort (this object is the listener, so no closure is made per call). */
  handleEvent(): void {
    this.#controller.abort(this.caller?.reason);
  }

  expire(): void {
    this.timedOut = true;
    this.#controller.abort(new DOMException(`timed out after ${this.timeoutMs} ms`, "TimeoutError"));
  }

  /** The error of a call of `operationId` that timed out; `cause` is what the aborted fetch threw. */
  timeoutError(operationId: string, cause: unknown): ApiTimeoutError {
    return new ApiTimeoutError(operationId, this.timeoutMs, cause);
  }

  close(): void {
    clearTimeout(this.#timer);
    this.caller?.removeEventListener("abort", this);
  }
}

function expire(scope: CallScope): void {
  scope.expire();
}
