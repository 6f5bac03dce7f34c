import type { ValidateFunction } from "ajv";
import {
  compileValidatorModule,
  compileValidators,
  SchemaCompileError,
  type ValidatorEntry,
} from "../../../../../src/compiler/index.js";
import { createAjv } from "./ajv-oracle.js";
import { dependencyOrder } from "./dependency-order.js";
import { loadJavaScript, type Validate, validatorOf } from "./load.js";
import { componentPointer, documentForAjv, type LoadedDocument } from "./openapi-corpus.js";

/** Why a verdict differs from Ajv's although neither side is broken. */
export type ExceptionKind = "int64-range" | "discriminator";

/** The two validators of every component schema of one document. */
export interface DocumentSides {
  readonly ours: ReadonlyMap<string, Validate>;
  readonly ajv: ReadonlyMap<string, ValidateFunction>;
  /** schema name → why it is left out */
  readonly skipped: ReadonlyMap<string, string>;
}

function entryFor(name: string, index: number): ValidatorEntry {
  return { name: `v${index}`, schema: { pointer: componentPointer(name) } };
}

/** Compiles every component schema into one module; schemas our compiler rejects are left out, with the reason. */
export async function buildSides(loaded: LoadedDocument): Promise<DocumentSides> {
  const skipped = new Map<string, string>();
  const names = [...loaded.schemaNames];
  let source: string | undefined;
  while (source === undefined) {
    try {
      source = compileValidators({
        document: loaded.document,
        dialect: loaded.dialect,
        entries: names.map(entryFor),
      }).javascript();
    } catch (error) {
      if (!(error instanceof SchemaCompileError)) throw error;
      for (const name of culprits(loaded, names)) skipped.set(name, `our compiler: ${error.message}`);
      names.splice(0, names.length, ...names.filter((name) => !skipped.has(name)));
    }
  }
  const module = loadJavaScript(source);
  const ours = new Map(names.map((name, index) => [name, validatorOf(module, `v${index}`)]));
  return { ours, ajv: ajvSide(loaded, names, skipped), skipped };
}

function culprits(loaded: LoadedDocument, names: readonly string[]): string[] {
  return names.filter((name, index) => {
    try {
      compileValidatorModule({ document: loaded.document, dialect: loaded.dialect, entries: [entryFor(name, index)] });
      return false;
    } catch {
      return true;
    }
  });
}

/**
 * Ajv's validator of each schema, asked for in dependency order (./dependency-order.ts): Ajv keeps
 * a schema it compiled for a `$ref` under the referring schema's root, and one asked for by name
 * under the name, so a schema compiled for a reference before it is asked for is compiled twice
 * (most of OpenAI's and Discord's, where this order compiles each once: a third less CPU).
 */
function ajvSide(
  loaded: LoadedDocument,
  names: readonly string[],
  skipped: Map<string, string>,
): Map<string, ValidateFunction> {
  const ajv = createAjv({ validateSchema: false });
  ajv.addSchema(documentForAjv(loaded) as object, "doc");
  const validators = new Map<string, ValidateFunction>();
  for (const name of dependencyOrder(loaded.schemas, names)) {
    try {
      const validate = ajv.getSchema(ajvRef(name));
      if (validate !== undefined) validators.set(name, validate);
    } catch (error) {
      skipped.set(name, `Ajv: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return validators;
}

/** One verdict that differs from Ajv's. */
export interface Mismatch {
  readonly name: string;
  readonly instance: unknown;
  readonly ajvVerdict: boolean;
}

/**
 * Re-checks mismatches with formats off / discriminators removed, to tell explained
 * differences from bugs. The variant validators are compiled once, for the schemas involved.
 */
export async function explainAll(
  loaded: LoadedDocument,
  mismatches: readonly Mismatch[],
): Promise<(ExceptionKind | undefined)[]> {
  const formatSuspects = mismatches.filter(({ instance }) => formatEvidence(instance) !== undefined);
  const withoutFormats = await variant(loaded, formatSuspects, loaded.document, "annotate");
  const stripped = hasDiscriminator(loaded.document) ? stripDiscriminators(loaded.document) : undefined;
  const withoutDiscriminator =
    stripped === undefined ? new Map<string, Validate>() : await variant(loaded, mismatches, stripped, "assert");
  const ajv = createAjv({ validateSchema: false, validateFormats: false });
  if (formatSuspects.length > 0) ajv.addSchema(documentForAjv(loaded) as object, "doc");
  return mismatches.map(({ name, instance, ajvVerdict }) => {
    const kind = formatEvidence(instance);
    const ajvWithoutFormats = kind === undefined ? undefined : ajv.getSchema(ajvRef(name));
    if (ajvWithoutFormats !== undefined && withoutFormats.get(name)?.(instance).valid === ajvWithoutFormats(instance))
      return kind;
    if (withoutDiscriminator.get(name)?.(instance).valid === ajvVerdict) return "discriminator";
    return undefined;
  });
}

/** Which documented format disagreement the instance could trigger, if any. */
function formatEvidence(instance: unknown): ExceptionKind | undefined {
  return numbers(instance).some((value) => Number.isInteger(value) && Math.abs(value) > 2 ** 63)
    ? "int64-range"
    : undefined;
}

async function variant(
  loaded: LoadedDocument,
  mismatches: readonly Mismatch[],
  document: unknown,
  formats: "assert" | "annotate",
): Promise<Map<string, Validate>> {
  const names = [...new Set(mismatches.map((mismatch) => mismatch.name))];
  if (names.length === 0) return new Map();
  const source = compileValidators({
    document,
    dialect: loaded.dialect,
    formats,
    entries: names.map(entryFor),
  }).javascript();
  const module = loadJavaScript(source);
  return new Map(names.map((name, index) => [name, validatorOf(module, `v${index}`)]));
}

function ajvRef(name: string): string {
  return `doc#/components/schemas/${encodeURIComponent(name.replace(/~/g, "~0").replace(/\//g, "~1"))}`;
}

function numbers(value: unknown, found: number[] = []): number[] {
  if (typeof value === "number") found.push(value);
  else if (typeof value === "object" && value !== null) for (const child of Object.values(value)) numbers(child, found);
  return found;
}

function isDiscriminator(value: unknown): boolean {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as Record<string, unknown>)["propertyName"] === "string"
  );
}

function hasDiscriminator(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (isDiscriminator((value as Record<string, unknown>)["discriminator"])) return true;
  return Object.values(value).some(hasDiscriminator);
}

function stripDiscriminators(document: unknown): unknown {
  return JSON.parse(JSON.stringify(document), (key, value: unknown) =>
    key === "discriminator" && isDiscriminator(value) ? undefined : value,
  ) as unknown;
}
