import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { isIdempotent, pause, type RetryOptions, retryAfter, retryDelay } from "../../../../runtime/client/retry.js";
import { CallScope, timingOut } from "../../../../runtime/client/transport.js";

/** How a promise has settled so far: "pending", "resolved" or the rejection reason. */
function track(promise: Promise<unknown>): () => unknown {
  let state: unknown = "pending";
  promise.then(
    () => (state = "resolved"),
    (reason: unknown) => (state = reason),
  );
  return () => state;
}

describe("transport", () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: Date.UTC(2024, 0, 1) });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  describe("timingOut", () => {
    it("gives a call without a finite timeout no scope: it sends the caller's signal as it is", () => {
      for (const timeout of [undefined, Infinity, Number.NaN]) {
        expect(timingOut(timeout)(new AbortController().signal, undefined)).toBeUndefined();
        const scope = timingOut(50)(undefined, timeout);
        expect(scope === undefined ? undefined : scope.timeoutMs).toBe(timeout === undefined ? 50 : undefined);
        scope?.close();
      }
      expect(vi.getTimerCount()).toBe(0);
    });

    it("gives a call the client's timeout, or its own", () => {
      expect(timingOut(50)(undefined, undefined)?.timeoutMs).toBe(50);
      expect(timingOut(50)(undefined, 20)?.timeoutMs).toBe(20);
      expect(timingOut()(undefined, 20)?.timeoutMs).toBe(20);
    });
  });

  describe("CallScope", () => {
    it("aborts with a TimeoutError when the timeout expires, and says it timed out", () => {
      const scope = new CallScope(undefined, 50);
      vi.advanceTimersByTime(49);
      expect(scope.signal.aborted).toBe(false);
      vi.advanceTimersByTime(1);
      expect(scope.signal.aborted).toBe(true);
      expect(scope.timedOut).toBe(true);
      expect(scope.signal.reason).toBeInstanceOf(DOMException);
      expect((scope.signal.reason as DOMException).name).toBe("TimeoutError");
      expect((scope.signal.reason as DOMException).message).toBe("timed out after 50 ms");
    });

    it("forwards the caller's abort and reason, without counting it as a timeout", () => {
      const caller = new AbortController();
      const scope = new CallScope(caller.signal, 1000);
      const reason = new Error("user cancelled");
      caller.abort(reason);
      expect(scope.signal.aborted).toBe(true);
      expect(scope.signal.reason).toBe(reason);
      expect(scope.timedOut).toBe(false);
    });

    it("starts aborted when the caller's signal already is", () => {
      const caller = new AbortController();
      caller.abort("early");
      const scope = new CallScope(caller.signal, 1000);
      expect([scope.signal.aborted, scope.signal.reason]).toEqual([true, "early"]);
    });

    it("once closed, neither times out nor follows the caller", () => {
      const caller = new AbortController();
      const scope = new CallScope(caller.signal, 10);
      scope.close();
      expect(vi.getTimerCount()).toBe(0);
      caller.abort();
      vi.advanceTimersByTime(100);
      expect(scope.signal.aborted).toBe(false);
      expect(scope.timedOut).toBe(false);
    });

    it("lets a retry wait, or rejects it with the abort reason as soon as the call is aborted", async () => {
      const caller = new AbortController();
      const scope = new CallScope(caller.signal, 1000);
      const done = track(pause(100, scope.signal));
      await vi.advanceTimersByTimeAsync(100);
      expect(done()).toBe("resolved");
      const cancelled = track(pause(500, scope.signal));
      await vi.advanceTimersByTimeAsync(10);
      caller.abort("stop");
      await vi.advanceTimersByTimeAsync(0);
      expect(cancelled()).toBe("stop");
      await expect(pause(1, scope.signal)).rejects.toBe("stop");
    });

    it("rejects a wait that outlasts the timeout when the timeout expires", async () => {
      const scope = new CallScope(undefined, 100);
      const waited = track(pause(1000, scope.signal));
      await vi.advanceTimersByTimeAsync(100);
      expect(waited()).toBeInstanceOf(DOMException);
      expect(scope.timedOut).toBe(true);
    });
  });

  describe("pause", () => {
    it("waits the given time, cancellable through the call's signal", async () => {
      const plain = track(pause(20, undefined));
      await vi.advanceTimersByTimeAsync(19);
      expect(plain()).toBe("pending");
      await vi.advanceTimersByTimeAsync(1);
      expect(plain()).toBe("resolved");
      const caller = new AbortController();
      const scoped = track(pause(20, caller.signal));
      caller.abort("gone");
      await vi.advanceTimersByTimeAsync(0);
      expect(scoped()).toBe("gone");
    });
  });

  describe("retryAfter", () => {
    it.each<[string | null, number | undefined]>([
      [null, undefined],
      ["0", 0],
      ["5", 5000],
      [" 120 ", 120_000],
      ["", undefined],
      ["soon", undefined],
      ["1e3", undefined],
      ["Mon, 01 Jan 2024 00:00:30 GMT", 30_000],
      ["Sun, 31 Dec 2023 23:59:00 GMT", 0],
      ["Monday, 01-Jan-24 00:00:30 GMT", 30_000],
      ["Mon Jan  1 00:00:30 2024", 30_000],
      ["Mon, 01 Jan 2024 00:00:30", undefined],
      ["2024-01-01T00:00:30Z", undefined],
    ])("%j → %j ms", (value, ms) => {
      expect(retryAfter(value)).toBe(ms);
    });

    // Date.parse alone, in V8, also takes texts that are neither delay-seconds nor an HTTP date
    // ("1.5", "-1", "+5" are read as dates in 2001): an invalid Retry-After would make the client
    // retry at once instead of falling back to its backoff.
    it("treats a value that is neither delay-seconds nor an HTTP date as invalid", () => {
      for (const value of ["1.5", "-1", "+5"]) expect(retryAfter(value)).toBeUndefined();
    });
  });

  describe("isIdempotent", () => {
    it.each([
      ["GET", true],
      ["HEAD", true],
      ["OPTIONS", true],
      ["PUT", true],
      ["DELETE", true],
      ["TRACE", true],
      ["POST", false],
      ["PATCH", false],
      ["CONNECT", false],
      ["get", false],
      ["", false],
    ])("%j → %s", (method, expected) => {
      expect(isIdempotent(method)).toBe(expected);
    });
  });

  describe("retryDelay", () => {
    /** Retries with a jitter source always answering `random`. */
    const retries = (count: number, random = 0.5, more: Partial<RetryOptions> = {}): RetryOptions => ({
      retries: count,
      random: () => random,
      ...more,
    });
    const answer = (status: number, retryAfterValue?: string): Response =>
      new Response(null, { status, headers: retryAfterValue === undefined ? {} : { "retry-after": retryAfterValue } });

    it("never retries without retry options or past the last retry", () => {
      expect(retryDelay(undefined, 0, true, undefined)).toBeUndefined();
      expect(retryDelay(retries(0), 0, true, undefined)).toBeUndefined();
      expect(retryDelay(retries(2), 2, true, answer(503))).toBeUndefined();
      expect(retryDelay(retries(2), 1, true, answer(503))).toBeDefined();
    });

    it("backs off with full jitter, doubling from 100 ms up to 5 s", () => {
      expect([0, 1, 2, 5, 6, 20].map((attempt) => retryDelay(retries(99, 0.999999), attempt, true, undefined))).toEqual(
        [99, 199, 399, 3199, 4999, 4999],
      );
      expect(retryDelay(retries(9, 0), 3, true, undefined)).toBe(0);
      expect(retryDelay(retries(9, 0.5, { minDelayMs: 10, maxDelayMs: 30 }), 0, true, undefined)).toBe(5);
      expect(retryDelay(retries(9, 0.5, { minDelayMs: 10, maxDelayMs: 30 }), 4, true, undefined)).toBe(15);
    });

    it("uses Math.random when no jitter source is given", () => {
      const random = vi.spyOn(Math, "random").mockReturnValue(0.25);
      expect(retryDelay({ retries: 1 }, 0, true, undefined)).toBe(25);
      expect(random).toHaveBeenCalledOnce();
      random.mockRestore();
    });

    it.each<[string, boolean, Response | undefined, number | undefined]>([
      ["a network failure of an idempotent call", true, undefined, 50],
      ["a network failure of another call", false, undefined, undefined],
      ["a 500 of an idempotent call", true, answer(500), 50],
      ["a 502 of another call", false, answer(502), undefined],
      ["a 429 of an idempotent call", true, answer(429), 50],
      ["a 429 of another call", false, answer(429), undefined],
      ["a 429 with Retry-After, any call", false, answer(429, "3"), 3000],
      ["a 503 with Retry-After, any call", false, answer(503, "Mon, 01 Jan 2024 00:00:02 GMT"), 2000],
      ["a 503 with Retry-After over the cap", true, answer(503, "3600"), 30_000],
      ["a 503 with an unreadable Retry-After, an idempotent call", true, answer(503, "later"), 50],
      ["a 500 with Retry-After, which only 429 and 503 honour", false, answer(500, "3"), undefined],
      ["a 400", true, answer(400), undefined],
      ["a 404", true, answer(404), undefined],
      ["a 501", true, answer(501), 50],
    ])("retries %s → %j ms", (_label, idempotent, response, delay) => {
      expect(retryDelay(retries(3), 0, idempotent, response)).toBe(delay);
    });

    it("caps Retry-After at maxRetryAfterMs", () => {
      expect(retryDelay(retries(3, 0.5, { maxRetryAfterMs: 1500 }), 0, false, answer(429, "2"))).toBe(1500);
    });
  });
});
