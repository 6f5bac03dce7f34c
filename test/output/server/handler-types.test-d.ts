/** The handler input of a multipart operation, checked by the compiler (a type test: `npm run typecheck` checks it, vitest does not run it). */
import { expectTypeOf, it } from "vitest";
import {
  type Authenticate,
  buildServer,
  createMockHandlers,
  type Handlers,
  type HandlerTypes,
  type UploadedFile,
} from "../../../generated/server/index.js";
import type { AddWorkerDocumentPathParams } from "../../../generated/types.js";

it("gives a multipart body's file fields as bytes", () => {
  expectTypeOf<HandlerTypes["addWorkerDocument"]["body"]["file"]>().toEqualTypeOf<UploadedFile | undefined>();
  expectTypeOf<HandlerTypes["addWorkerDocument"]["body"]["p_id"]>().toEqualTypeOf<number | undefined>();
  expectTypeOf<HandlerTypes["addWorkerDocument"]["params"]>().toEqualTypeOf<AddWorkerDocumentPathParams>();
  // a Buffer where Node's types are loaded (read through globalThis, so a page's program needs none)
  expectTypeOf<UploadedFile["data"]>().toExtend<Buffer>();
  expectTypeOf<Buffer>().toExtend<UploadedFile["data"]>();
});

it("gives handlers the principal type of the server's authenticate hook", () => {
  interface Caller {
    readonly companyId: number;
  }
  type CreateVenue = Handlers<Caller>["createVenue"];
  expectTypeOf<Parameters<CreateVenue>[0]["principal"]>().toEqualTypeOf<Caller>();
  // a yes/no hook's handlers receive no principal
  expectTypeOf<Parameters<Handlers["createVenue"]>[0]["principal"]>().toEqualTypeOf<undefined>();
  // every operation of this spec needs the key, so the principal is never missing
  expectTypeOf<HandlerTypes["listEvents"]["secured"]>().toEqualTypeOf<true>();
  const authenticate: Authenticate<Caller> = (key) => (key === "k" ? { companyId: 1 } : false);
  // @ts-expect-error a hook with a principal type answers a principal, not a bare yes
  const yesOnly: Authenticate<Caller> = () => true;
  const handlers: Handlers<Caller> = createMockHandlers<Caller>();
  void buildServer({ handlers, authenticate });
  void yesOnly;
});
