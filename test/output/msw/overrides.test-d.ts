/**
 * Overrides of createMswHandlers, checked by the compiler (a type test: `npm run typecheck` checks
 * it, vitest does not run it): each is typed as its operation's handler, so only a declared status
 * with a body of its type compiles.
 */
import { expectTypeOf, it } from "vitest";
import type { Problem } from "../../../generated/index.js";
import { createMswHandlers } from "../../../generated/msw/index.js";
import { createMockHandlers } from "../../../generated/server/index.js";

const problem: Problem = { type: "urn:problem-type:not-found", title: "Not Found", status: 404 };

it("takes an override answering a declared status, with the operation's typed input and principal", () => {
  interface Caller {
    readonly companyId: number;
  }
  createMswHandlers(createMockHandlers<Caller>(), {
    authenticate: () => ({ companyId: 1 }),
    overrides: {
      updateEvent: async ({ params, body, principal }) => {
        expectTypeOf(params.id).toEqualTypeOf<string>();
        expectTypeOf(body.name).toEqualTypeOf<string>();
        expectTypeOf(principal).toEqualTypeOf<Caller>();
        return { status: 404, body: problem };
      },
      createVenue: ({ body }) => ({ status: 200, body: { venue_id: 1, name: body.name } }),
    },
  });
});

it("refuses an undeclared status and a body of the wrong type", () => {
  createMswHandlers(createMockHandlers(), {
    overrides: {
      // @ts-expect-error createVenue declares no 404
      createVenue: async () => ({ status: 404, body: problem }),
    },
  });
  createMswHandlers(createMockHandlers(), {
    overrides: {
      // @ts-expect-error a 422 answers a Problem, not a string
      updateEvent: () => ({ status: 422, body: "no" }),
    },
  });
  // @ts-expect-error no such operation
  createMswHandlers(createMockHandlers(), { overrides: { deleteEverything: () => ({ status: 200, body: {} }) } });
});
