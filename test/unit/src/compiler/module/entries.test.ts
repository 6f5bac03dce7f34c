import { describe, expect, it } from "vitest";
import { compileValidatorModule } from "../../../../../src/index.js";
import { loadModule, validatorOf } from "../support/load.js";

const document = {
  openapi: "3.1.0",
  components: {
    schemas: {
      Id: { type: "integer", minimum: 0 },
      Slug: { type: "string" },
    },
  },
};

/** The parameters of one place as an operation's entry builds them: `{ name: { $ref } }`, names required. */
function parameters(refs: Readonly<Record<string, string>>): unknown {
  return {
    type: "object",
    properties: Object.fromEntries(Object.entries(refs).map(([name, $ref]) => [name, { $ref }])),
    required: Object.keys(refs),
  };
}

describe("entries of equal inline schemas", () => {
  const entries = [
    { name: "validateA", schema: { inline: parameters({ id: "#/components/schemas/Id" }) }, coerceStrings: true },
    { name: "validateB", schema: { inline: parameters({ id: "#/components/schemas/Id" }) }, coerceStrings: true },
    { name: "validateC", schema: { inline: parameters({ id: "#/components/schemas/Slug" }) } },
  ];
  const source = compileValidatorModule({ document, entries });

  it("share one function, an entry with another schema has its own", () => {
    const roots = [...source.matchAll(/^function (\$v_root\w*)\(/gm)].map((match) => match[1]);
    expect(roots).toEqual(["$v_root", "$v_root_2"]);
    const calls = [...source.matchAll(/^export function (validate\w)\(.*\n.*\n.*\n\s*return (\$v_root\w*)\(/gm)];
    expect(calls.map((match) => [match[1], match[2]])).toEqual([
      ["validateA", "$v_root"],
      ["validateB", "$v_root"],
      ["validateC", "$v_root_2"],
    ]);
  });

  it("each check as its schema says", async () => {
    const module = await loadModule(source);
    for (const name of ["validateA", "validateB"]) {
      const validate = validatorOf(module, name);
      expect(validate({ id: "7" })).toEqual({ valid: true, value: { id: 7 }, errors: undefined });
      expect(validate({ id: "-1" }).errors?.map((error) => error.message)).toEqual(["/id must be >= 0"]);
      expect(validate({}).errors?.map((error) => error.message)).toEqual(["must have required property 'id'"]);
    }
    const validateC = validatorOf(module, "validateC");
    expect(validateC({ id: "x" }).valid).toBe(true);
    expect(validateC({ id: 7 }).errors?.map((error) => error.message)).toEqual(["/id must be string"]);
  });
});
