import { type Code, code, num, tsOnly } from "./code.js";
import { FORMAT_HELPERS, type FormatHelperName } from "./formats.js";
import { COERCE_HELPERS, type CoerceHelperName } from "./runtime-coerce.js";
import { ERROR_HELPERS, type ErrorHelperName } from "./runtime-errors.js";
import { TRACKING_HELPERS, type TrackingHelperName } from "./runtime-tracking.js";
import { VALUE_HELPERS, type ValueHelperName } from "./runtime-values.js";

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

/** Declarations every module has beside the public types: the shared aliases. */
export const MODULE_TYPES = code`${tsOnly`interface $Sink { valid: boolean; value?: unknown; errors?: ValidationError[] }
type $Errors = $Sink | null;
`}const $MAX_DEPTH = ${num(MAX_DEPTH)};`;
