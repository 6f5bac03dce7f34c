import { appendPointer, pointerSegments, resolvePointer } from "../json-pointer.js";
import { isRecord } from "../json-value.js";
import { followRef } from "./document-nodes.js";

/** A component schema before naming: its key and pointer, and read/write use. */
export interface SchemaEntry {
  readonly name: string;
  readonly pointer: string;
  readonly hasReadWrite: boolean;
}

/** The component schemas sorted by key, each marked when it (or a schema it uses) has readOnly/writeOnly. */
export function listComponentSchemas(document: Record<string, unknown>): SchemaEntry[] {
  const schemas =
    isRecord(document.components) && isRecord(document.components.schemas) ? document.components.schemas : {};
  const names = Object.keys(schemas).sort();
  const direct = new Map(names.map((name) => [name, scanSchema(schemas[name])]));
  const marked = propagate(names, direct);
  return names.map((name) => ({
    name,
    pointer: appendPointer("#/components/schemas", name),
    hasReadWrite: marked.has(name),
  }));
}

/** What the model records about a body's schema. */
export interface SchemaFacts {
  readonly componentRef?: string;
  readonly hasReadWrite: boolean;
  readonly binaryFields: readonly string[];
}

/** Facts about any schema of the document, given which components use readOnly/writeOnly. */
export function createSchemaFacts(
  document: unknown,
  components: readonly SchemaEntry[],
): (schemaPointer: string) => SchemaFacts {
  const marked = new Set(components.filter((c) => c.hasReadWrite).map((c) => c.name));
  return (schemaPointer) => {
    const schema = resolvePointer(document, schemaPointer);
    const scan = scanSchema(schema);
    const hasReadWrite = scan.readWrite || [...scan.refs].some((ref) => marked.has(ref));
    const onlyRef = isRecord(schema) && Object.keys(schema).length === 1 ? componentSchemaName(schema.$ref) : undefined;
    return {
      ...(onlyRef !== undefined ? { componentRef: onlyRef } : {}),
      hasReadWrite,
      binaryFields: binaryFields(document, schema),
    };
  };
}

/** Top-level properties (through $ref and allOf) whose value is file content. */
function binaryFields(document: unknown, schema: unknown, seen = new Set<unknown>()): string[] {
  const node = followRefs(document, schema);
  if (!isRecord(node) || seen.has(node)) return [];
  seen.add(node);
  const own = isRecord(node.properties)
    ? Object.entries(node.properties)
        .filter(([, property]) => isBinary(followRefs(document, property)))
        .map(([name]) => name)
    : [];
  const inherited = Array.isArray(node.allOf)
    ? node.allOf.flatMap((member) => binaryFields(document, member, seen))
    : [];
  return [...new Set([...own, ...inherited])].sort();
}

function isBinary(schema: unknown): boolean {
  if (!isRecord(schema)) return false;
  if (schema.type === "array") return isBinary(schema.items);
  return (
    schema.format === "binary" || typeof schema.contentMediaType === "string" || schema.contentEncoding === "binary"
  );
}

function followRefs(document: unknown, schema: unknown): unknown {
  return followRef(document, schema, "")?.node ?? schema;
}

interface Scan {
  readWrite: boolean;
  refs: Set<string>;
}

/** The component name a "$ref" names, when it is "#/components/schemas/<name>". */
export function componentSchemaName(ref: unknown): string | undefined {
  if (typeof ref !== "string" || !ref.startsWith("#/components/schemas/")) return undefined;
  const segments = pointerSegments(ref);
  return segments.length === 3 ? segments[2] : undefined;
}

/** Whether a schema's own tree says readOnly/writeOnly, and which components it references. */
export function scanSchema(schema: unknown): Scan {
  const scan: Scan = { readWrite: false, refs: new Set() };
  const stack: unknown[] = [schema];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) stack.push(...node);
    if (!isRecord(node)) continue;
    if (node.readOnly === true || node.writeOnly === true) scan.readWrite = true;
    const ref = componentSchemaName(node.$ref);
    if (ref !== undefined) scan.refs.add(ref);
    for (const [key, child] of Object.entries(node))
      if (key !== "examples" && key !== "example" && key !== "enum" && key !== "const") stack.push(child);
  }
  return scan;
}

/** Every component that reaches a readOnly/writeOnly schema through its references. */
function propagate(names: string[], direct: Map<string, Scan>): Set<string> {
  const marked = new Set(names.filter((name) => direct.get(name)?.readWrite));
  let changed = marked.size > 0;
  while (changed) {
    changed = false;
    for (const name of names) {
      if (marked.has(name)) continue;
      if ([...(direct.get(name)?.refs ?? [])].some((ref) => marked.has(ref))) {
        marked.add(name);
        changed = true;
      }
    }
  }
  return marked;
}
