/** Loads spec/openapi.yaml for tests: raw (as written) and dereferenced, plus an Ajv oracle. */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import SwaggerParser from "@apidevtools/swagger-parser";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { parse } from "yaml";

export const specPath = fileURLToPath(new URL("../../spec/openapi.yaml", import.meta.url));

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export function readRawSpec(): JsonObject {
  return parse(readFileSync(specPath, "utf8")) as JsonObject;
}

export async function readDereferencedSpec(): Promise<JsonObject> {
  return (await SwaggerParser.dereference(readRawSpec() as never)) as unknown as JsonObject;
}

/** Follows an RFC 6901 pointer ("/a/b~1c") into a document. */
export function at(document: Json, pointer: string): Json | undefined {
  let node: Json | undefined = document;
  for (const raw of pointer.split("/").slice(1)) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (node === null || typeof node !== "object") return undefined;
    node = Array.isArray(node) ? node[Number(key)] : node[key];
  }
  return node;
}

/** A node, or what its local `$ref` ("#/components/...") points to in the document. */
export function deref(document: Json, node: Json | undefined): Json | undefined {
  const ref = node !== null && typeof node === "object" && !Array.isArray(node) ? node["$ref"] : undefined;
  return typeof ref === "string" && ref.startsWith("#") ? at(document, ref.slice(1)) : node;
}

/** Checks a value against a component schema (by name) or any schema of the spec (by JSON pointer). */
export interface Oracle {
  valid(schemaName: string, value: unknown): boolean;
  validAt(pointer: string, value: unknown): boolean;
}

/** Ajv 2020 with formats and the spec's components, to check examples and boundaries. */
export function createOracle(raw: JsonObject): Oracle {
  const ajv = new Ajv2020({ strict: false, allErrors: true, logger: false });
  addFormats.default(ajv);
  ajv.addFormat("binary", true);
  ajv.addSchema({ ...raw, $id: "spec.json" });
  const validAt = (pointer: string, value: unknown): boolean => {
    const validate = ajv.getSchema(`spec.json#${pointer}`);
    if (validate === undefined) throw new Error(`no schema at ${pointer}`);
    return validate(value) as boolean;
  };
  return { valid: (schemaName, value) => validAt(`/components/schemas/${schemaName}`, value), validAt };
}
