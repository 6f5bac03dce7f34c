import { describe, expect, it } from "vitest";
import { answerWith, type MockAnswer } from "../../../../runtime/server/runtime/answers.js";
import { ProblemError } from "../../../../runtime/server/runtime/problems.js";
import { authenticateOf } from "../../../../runtime/server/runtime/security.js";

type Handlers = Record<string, () => MockAnswer>;

describe("answerWith", () => {
  it("makes a handler per operation answering its prepared answer, the same object on every call", () => {
    const answer: MockAnswer = { status: 200, body: { id: 1 }, headers: { etag: "x" } };
    const handlers = answerWith<Handlers>({ getVenue: answer, deleteVenue: { status: 204 } });
    expect(Object.keys(handlers)).toEqual(["getVenue", "deleteVenue"]);
    expect(handlers.getVenue?.()).toBe(answer);
    expect(handlers.getVenue?.()).toBe(answer);
    expect(handlers.deleteVenue?.()).toEqual({ status: 204 });
  });

  it("makes an operation without a prepared answer throw the 501 problem naming it", () => {
    const handlers = answerWith<Handlers>({ listVenues: undefined });
    const call = (): unknown => handlers.listVenues?.();
    expect(call).toThrow(ProblemError);
    expect(call).toThrow("The operation listVenues is not implemented.");
  });

  it("makes nothing of nothing", () => {
    expect(Object.keys(answerWith<Handlers>({}))).toEqual([]);
  });

  it("carries an authenticate hook that lets any key in, so the handlers serve as they are", () => {
    const hook = authenticateOf(answerWith<Handlers>({}));
    expect(
      hook?.("any-key", { headers: {} } as never, { type: "apiKey", scheme: "k", in: "header", name: "X-API-KEY" }),
    ).toBe(true);
    expect(authenticateOf({})).toBeUndefined();
  });
});
