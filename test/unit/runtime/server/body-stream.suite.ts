import { PassThrough } from "node:stream";
import { describe, expect, it, vi } from "vitest";
import { leaveRest, readBody } from "../../../../runtime/server/runtime/body-stream.js";
import type { ProblemDetails } from "../../../../runtime/server/runtime/problems.js";
import { fakeRequest } from "../support/fastify.js";

interface Outcome {
  readonly problem: ProblemDetails | undefined;
  readonly body: Buffer;
}

/** Reads a fake request's body; resolves with the first outcome and counts every call of `done`. */
function read(
  request: Parameters<typeof readBody>[0],
  limit: number,
): { outcome: Promise<Outcome>; calls: () => number } {
  let calls = 0;
  const outcome = new Promise<Outcome>((resolve) => {
    readBody(request, limit, (problem, body) => {
      calls++;
      resolve({ problem, body: body as Buffer });
    });
  });
  return { outcome, calls: () => calls };
}

describe("readBody", () => {
  it("reads the raw stream when the parser handed no stream over", async () => {
    const { request, raw } = fakeRequest({ headers: { "content-length": "5" } });
    const { outcome } = read(request, 10);
    raw.end("héllo".slice(0, 4));
    expect(await outcome).toEqual({ problem: undefined, body: Buffer.from("héll") });
  });

  it("reads the stream the pass-through parser handed over as the body", async () => {
    const body = new PassThrough();
    const { request } = fakeRequest({ body });
    const { outcome } = read(request, 100);
    body.write("ab");
    body.write(Buffer.from("c✓"));
    body.end();
    const { problem, body: bytes } = await outcome;
    expect(problem).toBeUndefined();
    expect(bytes.toString("utf8")).toBe("abc✓");
  });

  it("reads string chunks as UTF-8 bytes", async () => {
    const { request, raw } = fakeRequest();
    raw.setEncoding("utf8");
    const { outcome } = read(request, 100);
    raw.end(Buffer.from("ä✓"));
    expect((await outcome).body).toEqual(Buffer.from("ä✓"));
  });

  it("reads an empty body as no bytes", async () => {
    const { request, raw } = fakeRequest();
    const { outcome } = read(request, 0);
    raw.end();
    expect(await outcome).toEqual({ problem: undefined, body: Buffer.alloc(0) });
  });

  it("accepts a body of exactly the limit", async () => {
    const { request, raw } = fakeRequest({ headers: { "content-length": "4" } });
    const { outcome } = read(request, 4);
    raw.write("ab");
    raw.end("cd");
    expect((await outcome).body.toString()).toBe("abcd");
  });

  it("refuses a declared Content-Length over the limit before reading a byte", async () => {
    const { request, raw } = fakeRequest({ headers: { "content-length": "5" } });
    const { outcome } = read(request, 4);
    const { problem, body } = await outcome;
    expect(problem?.status).toBe(413);
    expect(problem?.detail).toBe("The request body is larger than 4 bytes.");
    expect(body).toHaveLength(0);
    expect(raw.listenerCount("data")).toBe(0);
  });

  it("ignores a Content-Length that is not a number", async () => {
    const { request, raw } = fakeRequest({ headers: { "content-length": "x" } });
    const { outcome } = read(request, 4);
    raw.end("ok");
    expect((await outcome).body.toString()).toBe("ok");
  });

  it("refuses a body growing past the limit once, cut there: the rest is left unread", async () => {
    const { request, raw } = fakeRequest({ headers: { "transfer-encoding": "chunked" } });
    const { outcome, calls } = read(request, 4);
    raw.write("abc");
    raw.write("de");
    const { problem, body } = await outcome;
    expect(problem?.status).toBe(413);
    expect(body).toHaveLength(0);
    raw.write("more that nobody reads");
    await new Promise((resolve) => setImmediate(resolve));
    expect([calls(), raw.isPaused(), raw.readableLength]).toEqual([1, true, "more that nobody reads".length]);
  });

  it("answers a stream error with an unreadable-body problem, once", async () => {
    const { request, raw } = fakeRequest();
    const { outcome, calls } = read(request, 100);
    raw.write("ab");
    raw.destroy(new Error("socket hang up"));
    const { problem, body } = await outcome;
    expect(problem).toEqual({
      type: "urn:problem-type:malformed-body",
      title: "Malformed request body",
      status: 400,
      detail: "The request body could not be read.",
    });
    expect(body).toHaveLength(0);
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls()).toBe(1);
  });
});

describe("leaveRest", () => {
  // autoDestroy off, so that `destroyed` shows only what leaveRest did
  const rawStream = (): PassThrough => new PassThrough({ autoDestroy: false });

  it("detaches the raw request from its readers and leaves the rest unread, paused", async () => {
    const { request, raw } = fakeRequest({ raw: rawStream() });
    const reader = vi.fn();
    const target = new PassThrough();
    raw.on("data", reader);
    raw.pipe(target);
    raw.write("seen");
    await new Promise((resolve) => setImmediate(resolve));
    expect(reader).toHaveBeenCalledTimes(1);
    leaveRest(request);
    raw.write("left unread");
    await new Promise((resolve) => setImmediate(resolve));
    expect(reader).toHaveBeenCalledTimes(1);
    expect([raw.isPaused(), raw.readableLength, raw.destroyed]).toEqual([true, "left unread".length, false]);
  });

  it("does nothing to a request already read to the end or destroyed", async () => {
    const ended = fakeRequest();
    ended.raw.resume();
    ended.raw.end();
    await new Promise((resolve) => ended.raw.once("end", resolve));
    const reader = vi.fn();
    ended.raw.on("data", reader);
    leaveRest(ended.request);
    expect(ended.raw.listenerCount("data")).toBe(1);

    const destroyed = fakeRequest();
    destroyed.raw.on("data", reader);
    destroyed.raw.destroy();
    leaveRest(destroyed.request);
    expect(destroyed.raw.listenerCount("data")).toBe(1);
  });
});
