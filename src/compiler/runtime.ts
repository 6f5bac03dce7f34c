import { code, num, type Code } from "./code.js";
import { FORMAT_HELPERS, type FormatHelperName } from "./formats.js";
import { COERCE_HELPERS, type CoerceHelperName } from "./runtime-coerce.js";
import { ERROR_HELPERS, type ErrorHelperName } from "./runtime-errors.js";
import { TRACKING_HELPERS, type TrackingHelperName } from "./runtime-tracking.js";
import { VALUE_HELPERS, type ValueHelperName } from "./runtime-values.js";

/** The module's `Object.prototype.hasOwnProperty`, used as `$hop.call(o, key)`. */
export const HOP = code`$hop`;

/** How deep validator functions may call each other before the instance is rejected. */
export const MAX_DEPTH = 1000;

/** A piece of runtime support emitted into a module only when generated code uses it. */
export interface HelperDefinition {
  readonly deps: readonly HelperName[];
  readonly source: Code;
}

/** Every helper the generated code may call. */
export type HelperName = ErrorHelperName | ValueHelperName | TrackingHelperName | CoerceHelperName | FormatHelperName;

/** All helpers by name. */
export const HELPERS: Record<HelperName, HelperDefinition> = {
  ...ERROR_HELPERS,
  ...VALUE_HELPERS,
  ...TRACKING_HELPERS,
  ...COERCE_HELPERS,
  ...FORMAT_HELPERS,
};

/** Emission order, fixed so output is deterministic. */
export const HELPER_ORDER = Object.keys(HELPERS) as HelperName[];

/** The helper set closed under dependencies, in emission order. */
export function withDependencies(used: ReadonlySet<HelperName>): HelperName[] {
  const all = new Set<HelperName>();
  const visit = (name: HelperName): void => {
    if (all.has(name)) return;
    all.add(name);
    for (const dep of HELPERS[name].deps) visit(dep);
  };
  for (const name of used) visit(name);
  return HELPER_ORDER.filter((name) => all.has(name));
}

/** Declarations every module has: the public types and the shared aliases. */
export const MODULE_TYPES = code`/** One failed check, in Ajv's ErrorObject shape. */
export interface ValidationError {
  /** JSON Pointer to the failing value ("" for the whole value) */
  instancePath: string;
  /** pointer to the schema keyword that failed, e.g. "#/components/schemas/Venue/properties/name/maxLength" */
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  /** readable text starting with the instance path, e.g. "/name must be at most 150 characters" */
  message: string;
}
/** Options of a validate function. */
export interface ValidateOptions {
  /** collect every error instead of stopping at the first */
  allErrors?: boolean;
}
/** The outcome of a validate function: the (possibly converted) value, or the errors. */
export type ValidationResult<T> =
  | { valid: true; value: T; errors?: undefined }
  | { valid: false; value?: undefined; errors: ValidationError[] };
interface $Sink { valid: boolean; value?: unknown; errors?: ValidationError[] }
type $Errors = $Sink | null;
const $hop = Object.prototype.hasOwnProperty;
const $MAX_DEPTH = ${num(MAX_DEPTH)};`;
