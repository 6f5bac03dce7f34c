/**
 * The handler types, checked by the compiler (`tsc --noEmit -p .`): each `@ts-expect-error` marks
 * an answer that must not compile. At run time these tests only build values.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import type { HandlerResult, Handlers, HandlerTypes, NoInput, StatusRange } from "../../../generated/server/index.js";
import type { Problem, UpdateClientPathParams, Venue, VenueCreate } from "../../../generated/types.js";

type VenueResult = HandlerResult<HandlerTypes["createVenue"]["responses"]>;
const problem: Problem = { type: "urn:problem-type:not-found", title: "Not Found", status: 404 };

describe("handler input", () => {
  it("is the operation's validated request parts, typed", () => {
    const createVenue: Handlers["createVenue"] = (input) => {
      expectTypeOf(input.body).toEqualTypeOf<VenueCreate>();
      expectTypeOf(input.params).toEqualTypeOf<NoInput>();
      return { status: 200, body: { venue_id: 1, name: input.body.name } };
    };
    const updateClient: Handlers["updateClient"] = ({ params }) => {
      expectTypeOf(params).toEqualTypeOf<UpdateClientPathParams>();
      return { status: 200, body: params.id.length > 0 };
    };
    expect([createVenue, updateClient]).toHaveLength(2);
  });
});

describe("handler answers", () => {
  it("a declared status with its body type compiles", () => {
    const venue: Venue = { venue_id: 318 };
    const answers: VenueResult[] = [
      { status: 200, body: venue },
      { status: 400, body: problem },
      { status: 415, body: problem },
    ];
    const created: HandlerResult<HandlerTypes["createEvent"]["responses"]> = { status: 201, body: 9001 };
    const edited: HandlerResult<HandlerTypes["updateClient"]["responses"]> = {
      status: 200,
      body: true,
      headers: { "x-trace": "1" },
    };
    expect([...answers, created, edited]).toHaveLength(5);
  });

  it("an undeclared status or a wrong body does not compile", () => {
    // @ts-expect-error 201 is not a status of createVenue
    const undeclared: VenueResult = { status: 201, body: { venue_id: 1 } };
    // @ts-expect-error venue_id is an integer
    const wrongField: VenueResult = { status: 200, body: { venue_id: "1" } };
    // @ts-expect-error 200 answers a Venue, not a Problem
    const swapped: VenueResult = { status: 200, body: problem };
    // @ts-expect-error 400 answers a Problem
    const wrongError: VenueResult = { status: 400, body: { venue_id: 1 } };
    // @ts-expect-error createEvent answers a bare integer
    const notInteger: HandlerResult<HandlerTypes["createEvent"]["responses"]> = { status: 201, body: "9001" };
    // @ts-expect-error updateClient answers a bare boolean
    const notBoolean: HandlerResult<HandlerTypes["updateClient"]["responses"]> = { status: 200, body: "true" };
    expect([undeclared, wrongField, swapped, wrongError, notInteger, notBoolean]).toHaveLength(6);
  });

  it("a handler returning an undeclared status does not compile", () => {
    const handlers: Pick<Handlers, "createVenue" | "listEvents"> = {
      // @ts-expect-error 201 is not a status of createVenue
      createVenue: () => ({ status: 201, body: { venue_id: 1 } }),
      // @ts-expect-error total_count is an integer
      listEvents: async () => ({ status: 200, body: { total_count: "one" } }),
    };
    expect(Object.keys(handlers)).toHaveLength(2);
  });

  it("ranges and default stand for the statuses not declared explicitly", () => {
    type Answer = HandlerResult<{ "200": string; "4XX": number; default: boolean; "204": undefined }>;
    const answers: Answer[] = [
      { status: 200, body: "ok" },
      { status: 404, body: 1 },
      { status: 503, body: false },
      { status: 204 },
    ];
    // @ts-expect-error 404 falls under 4XX, which answers a number
    const rangeBody: Answer = { status: 404, body: true };
    // @ts-expect-error 200 is declared explicitly, so default does not cover it
    const defaultBody: Answer = { status: 200, body: true };
    // @ts-expect-error 204 declares no body
    const withBody: Answer = { status: 204, body: "x" };
    expectTypeOf<400 | 451 | 499>().toExtend<StatusRange<4>>();
    expectTypeOf<399 | 500>().not.toExtend<StatusRange<4>>();
    expect([...answers, rangeBody, defaultBody, withBody]).toHaveLength(7);
  });
});
