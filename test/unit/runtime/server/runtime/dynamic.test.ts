/**
 * The values `Prefer: dynamic=true` answers (runtime/server/runtime/dynamic.ts): the same seed
 * builds the same value, each keyword that shapes data is kept, and for every JSON answer of the
 * spec a value the operation's generated validator accepts is found within the seeds the server
 * tries.
 */
import { describe, expect, it } from "vitest";
import document from "../../../../../generated/openapi.json" with { type: "json" };
import { routes } from "../../../../../generated/routes.js";
import { dynamicValue, seededRandom } from "../../../../../runtime/server/runtime/dynamic.js";

/** The values of `schema` for seeds 0 to count - 1, in `doc`. */
function values(schema: unknown, count = 20, doc: unknown = {}): unknown[] {
  return Array.from({ length: count }, (_, seed) => dynamicValue(doc, schema, seededRandom(String(seed))));
}

describe("dynamicValue", () => {
  it("builds the same value from the same seed, and others from other seeds", () => {
    const schema = {
      type: "object",
      required: ["name", "n"],
      properties: { name: { type: "string" }, n: { type: "integer" } },
    };
    expect(values(schema, 5)).toEqual(values(schema, 5));
    expect(new Set(values(schema).map((value) => JSON.stringify(value))).size).toBeGreaterThan(10);
  });

  it("keeps numbers within their bounds and steps", () => {
    for (const value of values({ type: "integer", minimum: 3, maximum: 9, multipleOf: 3 }))
      expect([3, 6, 9]).toContain(value);
    for (const value of values({ type: "number", exclusiveMinimum: 0, exclusiveMaximum: 1 })) {
      expect(value).toBeGreaterThan(0);
      expect(value).toBeLessThan(1);
    }
    expect(values({ type: "integer", minimum: 5, maximum: 4 })).toEqual(Array(20).fill(undefined));
  });

  it("writes strings of the format and length asked", () => {
    for (const value of values({ type: "string", format: "date" })) expect(value).toMatch(/^\d{4}-\d\d-\d\d$/);
    for (const value of values({ type: "string", format: "date-time" }))
      expect(Number.isNaN(Date.parse(value as string))).toBe(false);
    for (const value of values({ type: "string", format: "uuid" }))
      expect(value).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    for (const value of values({ type: "string", format: "email" })) expect(value).toMatch(/^[a-z.]+@example\.com$/);
    for (const value of values({ type: "string", minLength: 12, maxLength: 14 }))
      expect((value as string).length).toBeGreaterThanOrEqual(12);
    for (const value of values({ type: "string", maxLength: 2 }))
      expect((value as string).length).toBeLessThanOrEqual(2);
  });

  it("takes const and enum, every required property, no writeOnly one, and items within their counts", () => {
    expect(new Set(values({ enum: ["a", "b"] }))).toEqual(new Set(["a", "b"]));
    expect(values({ const: 7 }, 3)).toEqual([7, 7, 7]);
    const object = {
      type: "object",
      required: ["id", "tags"],
      properties: {
        id: { type: "integer" },
        secret: { type: "string", writeOnly: true },
        tags: { type: "array", items: { type: "string" }, minItems: 2, maxItems: 3 },
      },
    };
    for (const value of values(object) as { id: unknown; tags: unknown[]; secret?: unknown }[]) {
      expect(typeof value.id).toBe("number");
      expect(value.tags.length).toBeGreaterThanOrEqual(2);
      expect(value.tags.length).toBeLessThanOrEqual(3);
      expect(value).not.toHaveProperty("secret");
    }
  });

  it("merges allOf, sets a discriminator's tag to its branch, and ends a recursive schema", () => {
    const doc = {
      components: {
        schemas: {
          Cat: {
            type: "object",
            required: ["kind", "meows"],
            properties: { kind: { type: "string" }, meows: { type: "boolean" } },
          },
          Dog: { type: "object", required: ["kind"], properties: { kind: { type: "string" } } },
          Node: {
            type: "object",
            required: ["name"],
            properties: { name: { type: "string" }, next: { $ref: "#/components/schemas/Node" } },
          },
        },
      },
    };
    const pet = {
      oneOf: [{ $ref: "#/components/schemas/Cat" }, { $ref: "#/components/schemas/Dog" }],
      discriminator: { propertyName: "kind", mapping: { dog: "#/components/schemas/Dog" } },
    };
    for (const value of values(pet, 20, doc) as { kind: string; meows?: boolean }[])
      expect(value.kind === "Cat" ? typeof value.meows : value.kind).toBe(value.kind === "Cat" ? "boolean" : "dog");
    const merged = {
      allOf: [
        { $ref: "#/components/schemas/Dog" },
        { required: ["age"], properties: { age: { type: "integer", minimum: 1 } } },
      ],
    };
    for (const value of values(merged, 20, doc))
      expect(value).toMatchObject({ kind: expect.any(String), age: expect.any(Number) });
    for (const value of values({ $ref: "#/components/schemas/Node" }, 20, doc)) expect(value).toHaveProperty("name");
  });
});

describe("dynamic answers of the spec", () => {
  it("finds for every JSON answer a value its generated validator accepts, within the server's 20 seeds", () => {
    const paths = document.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>;
    let checked = 0;
    for (const route of Object.values(routes)) {
      const operation = paths[route.path]?.[route.method.toLowerCase()];
      for (const [status, validate] of Object.entries(route.validators.responses)) {
        const schema = schemaOf(operation?.responses[status]);
        const accepted = values(schema, 20, document).some((value) => value !== undefined && validate(value).valid);
        expect(accepted, `${route.operationId} ${status}`).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(30);
  });
});

/** The JSON content's schema of a response (following a `$ref` to a shared response). */
function schemaOf(response: unknown): unknown {
  let current = response as { $ref?: string; content?: Record<string, { schema?: unknown }> } | undefined;
  if (current?.$ref !== undefined) {
    const name = current.$ref.split("/").at(-1) ?? "";
    current = (document.components as { responses: Record<string, typeof current> }).responses[name];
  }
  const content = current?.content ?? {};
  const json = Object.keys(content).find((type) => type.includes("json"));
  return json === undefined ? undefined : content[json]?.schema;
}
