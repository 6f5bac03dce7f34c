import { describe, expect, it } from "vitest";
import { $issue, $standard } from "../../../../runtime/validators/helpers/standard-schema.js";
import type { ValidateOptions, ValidationError, ValidationResult } from "../../../../runtime/validators/types.js";

const error = (instancePath: string, message: string): ValidationError => ({
  instancePath,
  schemaPath: "#",
  keyword: "type",
  params: {},
  message,
});

describe("Standard Schema helpers", () => {
  it("$standard runs the validate function with every error collected", () => {
    const seen: (ValidateOptions | undefined)[] = [];
    const validate = (value: unknown, options?: ValidateOptions): ValidationResult<number> => {
      seen.push(options);
      return typeof value === "number"
        ? { valid: true, value }
        : { valid: false, errors: [error("", "must be number")] };
    };
    const schema = $standard(validate)["~standard"];
    expect(schema.version).toBe(1);
    expect(schema.validate(1)).toEqual({ value: 1 });
    expect(schema.validate("x")).toEqual({ issues: [{ message: "must be number" }] });
    expect(seen).toEqual([{ allErrors: true }, { allErrors: true }]);
  });

  it("$issue gives the path as keys, indexes in arrays, without the path in front of the message", () => {
    expect($issue(error("/items/0/a~1b", "/items/0/a~1b must be string"), { items: [{ "a/b": 1 }] })).toEqual({
      message: "must be string",
      path: ["items", 0, "a/b"],
    });
    expect($issue(error("/0", "/0 must be string"), { 0: 1 })).toEqual({ message: "must be string", path: ["0"] });
  });
});
