/**
 * The validators as Standard Schema v1 objects (`schemas` from ./validators): checked against the
 * official @standard-schema/spec types, run directly, and plugged into a real consumer, Hono's
 * standard validator middleware.
 */
import { sValidator } from "@hono/standard-validator";
import type { StandardSchemaV1 } from "@standard-schema/spec";
import { Hono } from "hono";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { CreateVenueBody, PayrollGroupCreate } from "../../../generated/types.js";
import { schemas } from "../../../generated/validators/index.js";
import { venue } from "../../support/contract-bodies.js";
import { deref, type Json, type JsonObject, readRawSpec } from "../../support/spec-document.js";

/** Runs a schema's validate, which these schemas answer synchronously. */
function check<S extends StandardSchemaV1>(
  schema: S,
  value: unknown,
): StandardSchemaV1.Result<StandardSchemaV1.InferOutput<S>> {
  const result = schema["~standard"].validate(value);
  if (result instanceof Promise) throw new Error("validate answered asynchronously");
  return result;
}

/** The keys `schemas` must have: every component, and each operation's body and parameters. */
function expectedKeys(): string[] {
  const raw = readRawSpec();
  const keys = Object.keys((raw["components"] as JsonObject)["schemas"] as JsonObject);
  for (const item of Object.values(raw["paths"] as JsonObject)) {
    for (const operation of Object.values(item as JsonObject)) {
      const { operationId, requestBody, parameters } = operation as JsonObject;
      const stem = String(operationId).replace(/^./, (first) => first.toUpperCase());
      if (requestBody !== undefined) keys.push(`${stem}Body`);
      const places = new Set(
        ((parameters as Json[] | undefined) ?? []).map((parameter) => (deref(raw, parameter) as JsonObject)["in"]),
      );
      for (const [place, suffix] of [
        ["path", "PathParams"],
        ["query", "Query"],
        ["header", "Headers"],
      ])
        if (places.has(place)) keys.push(`${stem}${suffix}`);
    }
  }
  return keys.sort();
}

describe("schemas", () => {
  it("has a Standard Schema v1 for every component and every operation's body and path parameters", () => {
    expect(Object.keys(schemas).sort()).toEqual(expectedKeys());
    for (const schema of Object.values(schemas)) {
      expect(schema["~standard"]).toMatchObject({ version: 1, vendor: "workforce-scheduling-api" });
      expect(typeof schema["~standard"].validate).toBe("function");
    }
  });

  it("answers { value } for a valid value, converted as the validator converts it", () => {
    expect(check(schemas.CreateVenueBody, venue())).toEqual({ value: venue() });
    expect(check(schemas.AddWorkerCredentialPathParams, { id: "1042" })).toEqual({ value: { id: 1042 } });
  });

  it("answers every issue, with its message and its path as keys (array indexes as numbers)", () => {
    const body: Partial<Record<keyof PayrollGroupCreate, unknown>> = {
      name: "Weekend crew",
      locationAll: "yes",
      locations: ["12", 7],
    };
    expect(check(schemas.CreatePayrollGroupBody, body)).toEqual({
      issues: [
        { message: "must be boolean", path: ["locationAll"] },
        { message: "must be string", path: ["locations", 1] },
      ],
    });
    const nested = check(schemas.EventCreate, { name: "Gala", date: "2024-04-20", venue: { venue_id: 318 } });
    expect(nested.issues).toEqual([{ message: "must be string", path: ["venue", "venue_id"] }]);
    expect(check(schemas.Venue, "a venue").issues).toEqual([{ message: "must be object" }]);
  });
});

describe("schemas in Hono's standard validator", () => {
  const app = new Hono().post(
    "/workers/:id/venues",
    sValidator("param", schemas.AddWorkerCredentialPathParams),
    sValidator("json", schemas.CreateVenueBody),
    (c) => {
      const body = c.req.valid("json");
      const { id } = c.req.valid("param");
      expectTypeOf(body).toEqualTypeOf<CreateVenueBody>();
      return c.json({ id, name: body.name, idType: typeof id });
    },
  );
  const send = (path: string, json: unknown): Promise<Response> =>
    Promise.resolve(
      app.request(path, {
        method: "POST",
        body: JSON.stringify(json),
        headers: { "content-type": "application/json" },
      }),
    );

  it("hands the handler typed, validated and converted input", async () => {
    const response = await send("/workers/1042/venues", venue());
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: 1042, name: "Riverside Hall", idType: "number" });
  });

  it("refuses invalid input with our issues", async () => {
    const response = await send("/workers/1042/venues", venue({ name: "x".repeat(151) }));
    expect(response.status).toBe(400);
    const answer = (await response.json()) as { success: boolean; error: unknown[] };
    expect(answer.success).toBe(false);
    expect(answer.error).toEqual([{ message: "must be at most 150 characters", path: ["name"] }]);
    expect((await send("/workers/-1/venues", venue())).status).toBe(400);
  });
});
