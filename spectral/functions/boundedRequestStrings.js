// Every string in a request body schema must be bounded (maxLength, enum or const, or a fixed-shape
// format such as date), or explicitly marked unbounded with `x-unbounded: <reason>`. An unbounded
// string is a choice a reviewer should see, not an accident.
import { createRulesetFunction } from "@stoplight/spectral-core";

const FIXED_FORMATS = new Set(["date", "date-time", "time", "uuid", "int32", "int64"]);

function isString(schema) {
  const type = schema.type;
  return type === "string" || (Array.isArray(type) && type.includes("string"));
}

function isBounded(schema) {
  return (
    typeof schema.maxLength === "number" ||
    Array.isArray(schema.enum) ||
    schema.const !== undefined ||
    FIXED_FORMATS.has(schema.format)
  );
}

function unboundedReason(schema) {
  const reason = schema["x-unbounded"];
  return typeof reason === "string" && reason.trim().length > 0 ? reason : undefined;
}

const CHILD_LISTS = ["allOf", "anyOf", "oneOf", "prefixItems"];
const CHILD_SCHEMAS = ["items", "additionalProperties", "not", "if", "then", "else"];

function* children(schema, path) {
  for (const [name, child] of Object.entries(schema.properties ?? {})) yield [child, [...path, "properties", name]];
  for (const key of CHILD_SCHEMAS) if (schema[key] !== undefined) yield [schema[key], [...path, key]];
  for (const key of CHILD_LISTS) {
    const list = Array.isArray(schema[key]) ? schema[key] : [];
    for (let i = 0; i < list.length; i++) yield [list[i], [...path, key, i]];
  }
}

function walk(schema, path, seen, results) {
  if (schema === null || typeof schema !== "object" || seen.has(schema)) return;
  seen.add(schema);
  if (isString(schema) && !isBounded(schema) && unboundedReason(schema) === undefined) {
    results.push({
      message: "Request string has no maxLength: add one, or mark it `x-unbounded: <reason>`.",
      path,
    });
  }
  for (const [child, childPath] of children(schema, path)) walk(child, childPath, seen, results);
}

export default createRulesetFunction({ input: { type: "object" }, options: null }, (schema, _opts, context) => {
  const results = [];
  walk(schema, context.path, new Set(), results);
  return results;
});
