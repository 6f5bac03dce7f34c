/** The Standard Schema objects' types (a type test: `npm run typecheck` checks it, vitest does not run it). */
import type { StandardSchemaV1 } from "@standard-schema/spec";
import { expectTypeOf, it } from "vitest";
import type { AddWorkerCredentialPathParams, CreateVenueBody, EventCreate, Venue } from "../../../generated/types.js";
import { schemas } from "../../../generated/validators/index.js";

it("is typed so that InferInput and InferOutput give the generated types", () => {
  expectTypeOf<StandardSchemaV1.InferInput<typeof schemas.CreateVenueBody>>().toEqualTypeOf<CreateVenueBody>();
  expectTypeOf<StandardSchemaV1.InferOutput<typeof schemas.Venue>>().toEqualTypeOf<Venue>();
  expectTypeOf<
    StandardSchemaV1.InferOutput<typeof schemas.AddWorkerCredentialPathParams>
  >().toEqualTypeOf<AddWorkerCredentialPathParams>();
  expectTypeOf(schemas.EventCreate).toMatchTypeOf<StandardSchemaV1<EventCreate>>();
});
