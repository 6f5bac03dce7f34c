/**
 * Timeouts and cancellation, and the waits between retries (whose policy is retry.ts's). A call
 * gets an AbortSignal only when it has a timeout or the caller passed a signal; the caller's
 * signal is forwarded into the timeout's controller (no AbortSignal.any needed, so it works
 * wherever AbortController does) and the forwarding is removed when the call ends.
 */

/** The cancellation of one call: the signal fetch and retry waits listen to. */
export class CallScope {
  readonly signal: AbortSignal;
  timedOut = false;
  readonly #controller: AbortController | undefined;
  readonly #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    readonly caller: AbortSignal | undefined,
    readonly timeoutMs: number | undefined,
  ) {
    if (timeoutMs === undefined || !Number.isFinite(timeoutMs)) {
      this.signal = caller ?? new AbortController().signal;
      return;
    }
    this.#controller = new AbortController();
    this.signal = this.#controller.signal;
    this.#timer = setTimeout(expire, timeoutMs, this);
    if (caller?.aborted) this.#controller.abort(caller.reason);
    else caller?.addEventListener("abort", this);
  }

  /** Forwards the caller's abort (this object is the listener, so no closure is made per call). */
  handleEvent(): void {
    this.#controller?.abort(this.caller?.reason);
  }

  expire(): void {
    this.timedOut = true;
    this.#controller?.abort(new DOMException(`timed out after ${this.timeoutMs} ms`, "TimeoutError"));
  }

  close(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    if (this.#controller !== undefined) this.caller?.removeEventListener("abort", this);
  }

  /** Waits, or rejects with the abort reason as soon as the call is aborted or times out. */
  wait(ms: number): Promise<void> {
    const signal = this.signal;
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
}

function expire(scope: CallScope): void {
  scope.expire();
}

/** Waits between attempts; `scope` makes the wait cancellable. */
export function pause(ms: number, scope: CallScope | undefined): Promise<void> {
  if (scope !== undefined) return scope.wait(ms);
  return new Promise((resolve) => setTimeout(resolve, ms));
}

const IDEMPOTENT = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE", "TRACE"]);

/** Whether a method may be repeated without changing the outcome (RFC 9110, 9.2.2). */
export function isIdempotent(method: string): boolean {
  return IDEMPOTENT.has(method);
}
