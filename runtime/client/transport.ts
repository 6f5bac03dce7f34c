/**
 * Timeouts and cancellation (the waits between retries are retry.ts's, and listen to the same
 * signal). A call gets an AbortSignal only when it has a timeout or the caller passed a signal;
 * the caller's signal is forwarded into the timeout's controller (no AbortSignal.any needed, so it
 * works wherever AbortController does) and the forwarding is removed when the call ends.
 */

/** The cancellation of one call: the signal fetch and retry waits listen to. */
export class CallScope {
  // declared and set by the constructor: a field declaration would be code in every page
  declare readonly caller: AbortSignal | undefined;
  declare readonly timeoutMs: number | undefined;
  declare readonly signal: AbortSignal;
  timedOut = false;
  readonly #controller: AbortController | undefined;
  readonly #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(caller: AbortSignal | undefined, timeoutMs: number | undefined) {
    this.caller = caller;
    this.timeoutMs = timeoutMs;
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
}

function expire(scope: CallScope): void {
  scope.expire();
}
