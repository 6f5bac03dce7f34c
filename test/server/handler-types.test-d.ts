/** The handler input of a multipart operation, checked by the compiler (a type test: `npm run typecheck` checks it, vitest does not run it). */
import { expectTypeOf, it } from "vitest";
import type { HandlerTypes, UploadedFile } from "../../generated/server/index.js";
import type { AddWorkerDocumentPathParams } from "../../generated/types.js";

it("gives a multipart body's file fields as bytes", () => {
  expectTypeOf<HandlerTypes["addWorkerDocument"]["body"]["file"]>().toEqualTypeOf<UploadedFile | undefined>();
  expectTypeOf<HandlerTypes["addWorkerDocument"]["body"]["p_id"]>().toEqualTypeOf<number | undefined>();
  expectTypeOf<HandlerTypes["addWorkerDocument"]["params"]>().toEqualTypeOf<AddWorkerDocumentPathParams>();
  expectTypeOf<UploadedFile["data"]>().toEqualTypeOf<Buffer>();
});
