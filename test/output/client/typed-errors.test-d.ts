/**
 * Errors typed by status, checked by the compiler (a type test: `npm run typecheck` checks it,
 * vitest does not run it): `isApiError` narrows `status` to the operation's declared non-2xx
 * statuses and `body` to their types, discriminated by status.
 */
import { expectTypeOf, it } from "vitest";
import { type ApiErrorOf, type ErrorAnswers, isApiError, type Problem } from "../../../generated/index.js";

it("types each operation's error answers by status", () => {
  expectTypeOf<ErrorAnswers["createVenue"]["422"]>().toEqualTypeOf<Problem>();
  expectTypeOf<keyof ErrorAnswers["listEvents"]>().toEqualTypeOf<"401" | "403" | "500">();
  expectTypeOf<ApiErrorOf<"listEvents">["status"]>().toEqualTypeOf<401 | 403 | 500>();
});

it("narrows an unknown error to the declared error answers of the operation", () => {
  const caught: unknown = undefined;
  if (isApiError(caught, "updateEvent")) {
    expectTypeOf(caught.status).toEqualTypeOf<400 | 401 | 403 | 404 | 413 | 414 | 415 | 422 | 500>();
    expectTypeOf(caught.body).toEqualTypeOf<Problem>();
    expectTypeOf(caught.operationId).toEqualTypeOf<string>();
    if (caught.status === 404) expectTypeOf(caught).toExtend<{ readonly status: 404; readonly body: Problem }>();
    // @ts-expect-error updateEvent declares no 409
    if (caught.status === 409) void caught;
  }
  if (isApiError(caught, "listEvents")) {
    expectTypeOf(caught.status).toEqualTypeOf<401 | 403 | 500>();
    // @ts-expect-error listEvents declares no 404
    if (caught.status === 404) void caught;
  }
  // @ts-expect-error no such operation
  void isApiError(caught, "deleteEverything");
});
