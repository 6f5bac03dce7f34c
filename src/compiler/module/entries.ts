import { resolvePointer } from "../../json-pointer.js";
import { isIdentifier } from "../code/code.js";
import type { Direction } from "../keywords/context.js";
import { SchemaCompileError } from "../registry/errors.js";
import { indexDocument } from "../registry/indexer.js";
import type { SchemaLocation } from "../registry/location.js";
import type { SchemaRegistry } from "../registry/registry.js";
import { DEFAULT_BASE_URI } from "../registry/uri.js";

/** One exported validator of a generated module. */
export interface ValidatorEntry {
  /** exported validate function name, e.g. "validateVenue" (checked identifier) */
  name: string;
  /** optional exported type-guard name, e.g. "isVenue" */
  guardName?: string;
  /** TS type expression used for the result/guard, e.g. "Venue" or "T.CreateVenueBody"; default "unknown" */
  typeName?: string;
  /**
   * A JSON pointer into `document` ("#/components/schemas/Venue"), an inline schema (its
   * `$ref`s resolve against `document`), or an absolute URI of a schema known to the module
   * (a `resources` document or an `$id`).
   */
  schema: { pointer: string } | { inline: unknown } | { uri: string };
  /** request: readOnly properties present in the instance are errors; response: writeOnly ones are; default neutral */
  direction?: Direction;
  /** parameters: top-level string values are converted per the property schema's type before checking */
  coerceStrings?: boolean;
  /** keys under which the module's `schemas` offers this validator as a Standard Schema v1 object */
  standardSchemaKeys?: readonly string[];
}

/** The inline schemas registered, by their JSON text, per registry. */
const inlineSchemas = new WeakMap<SchemaRegistry, Map<string, SchemaLocation>>();

/**
 * Finds (or registers) the schema an entry validates. Entries with equal inline schemas (the
 * parameters of operations that take the same ones, `{ id }` of the same component) share one
 * location, so one function checks them all.
 */
export function locateEntry(registry: SchemaRegistry, entry: ValidatorEntry): SchemaLocation {
  const { schema } = entry;
  if ("pointer" in schema) return locatePointer(registry, schema.pointer, entry.name);
  if ("uri" in schema) return registry.resolveRef(schema.uri, DEFAULT_BASE_URI, { doc: 0, ptr: "" });
  const registered = inlineSchemas.get(registry) ?? new Map<string, SchemaLocation>();
  inlineSchemas.set(registry, registered);
  const text = JSON.stringify(schema.inline);
  const known = registered.get(text);
  if (known !== undefined) return known;
  const location = registerInline(registry, schema.inline);
  registered.set(text, location);
  return location;
}

function registerInline(registry: SchemaRegistry, inline: unknown): SchemaLocation {
  const main = registry.document(0);
  const doc = registry.addDocument({
    root: inline,
    retrievalUri: main.openApi ? main.retrievalUri : registry.baseWithin(main.root, main.retrievalUri),
    label: "",
    openApi: false,
    addressable: false,
  });
  indexDocument(registry, doc);
  return { doc, ptr: "" };
}

function locatePointer(registry: SchemaRegistry, pointer: string, entry: string): SchemaLocation {
  const raw = pointer.startsWith("#") ? pointer.slice(1) : pointer;
  if (raw !== "" && !raw.startsWith("/")) {
    throw new SchemaCompileError(
      pointer,
      `entry ${entry}: schema pointer must be a JSON pointer such as "#/components/schemas/Name"`,
    );
  }
  const root = registry.document(0).root;
  if (resolvePointer(root, raw) !== undefined) return { doc: 0, ptr: raw };
  const decoded = safeDecode(raw);
  if (decoded !== undefined && resolvePointer(root, decoded) !== undefined) return { doc: 0, ptr: decoded };
  throw new SchemaCompileError(
    pointer,
    `entry ${entry}: nothing exists at this pointer in the document; check the schema name`,
  );
}

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** Entry and guard names must be identifiers, unique, and not in the module's `$` namespace. */
export function checkEntryNames(entries: readonly ValidatorEntry[]): void {
  const seen = new Set<string>();
  for (const entry of entries) {
    for (const name of entry.guardName === undefined ? [entry.name] : [entry.name, entry.guardName]) {
      if (!isIdentifier(name) || name.startsWith("$")) {
        throw new TypeError(
          `validator name ${JSON.stringify(name)} must be a JavaScript identifier not starting with "$"`,
        );
      }
      if (seen.has(name)) throw new TypeError(`validator name ${JSON.stringify(name)} is used twice`);
      seen.add(name);
    }
  }
}
