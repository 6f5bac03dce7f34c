import type { Discrimination, DiscriminatorCase } from "../../schema/discriminator.js";
import { type Block, type Code, code, str, tsOnly } from "../code/code.js";
import type { SchemaLocation } from "../registry/location.js";
import { childLocation } from "../registry/location.js";
import { compileSubschema, inPlace, type ObjectNodeCtx } from "./context.js";
import { failWith, params } from "./fail.js";
import { emitCall } from "./ref.js";
import { listValues } from "./wording.js";

/** The messages of the keywords compiled here, written at generation time (see wording.ts). */
const messages = {
  discriminatorMissing: (name: string) => `must have required property '${name}' (discriminator)`,
  discriminatorType: "must be a string (discriminator)",
  discriminatorValue: (tags: readonly string[]) => `must be one of: ${listValues(tags)} (discriminator)`,
} as const;

/**
 * OpenAPI discriminator on oneOf/anyOf: for an object, the tag property selects the one
 * branch to validate (a missing or unknown tag is an error, unless `defaultMapping` names the
 * schema such a tag selects). Non-objects, and tags several branches claim, get the plain
 * oneOf/anyOf semantics via `plain`.
 */
export function compileDiscriminated(
  ctx: ObjectNodeCtx,
  out: Block,
  discrimination: Discrimination<SchemaLocation>,
  plain: () => void,
): void {
  const d = ctx.data;
  const o = ctx.fn.fresh("o");
  const usePlain = ctx.fn.fresh("p");
  out.line(
    code`const ${o} = typeof ${d} === "object" && ${d} !== null && !Array.isArray(${d}) ? (${d}${tsOnly` as Record<string, unknown>`}) : null;`,
  );
  out.line(code`let ${usePlain} = ${o} === null;`);
  out.open(code`if (${o} !== null)`);
  emitSelection(ctx, out, discrimination, o, usePlain);
  out.close();
  out.open(code`if (${usePlain})`);
  plain();
  out.close();
}

function emitSelection(
  ctx: ObjectNodeCtx,
  out: Block,
  discrimination: Discrimination<SchemaLocation>,
  o: Code,
  usePlain: Code,
): void {
  const { propertyName, cases } = discrimination;
  const tag = ctx.fn.fresh("g");
  const name = str(propertyName);
  out.line(code`const ${tag} = ${ctx.fn.module.helper("hop")}.call(${o}, ${name}) ? ${o}[${name}] : undefined;`);
  if (discrimination.fallback !== undefined) {
    emitWithFallback(ctx, out, discrimination, tag, usePlain);
    return;
  }
  const at = childLocation(ctx.at, "discriminator");
  const tagPath = ctx.path.child(propertyName);
  const missing = failWith(
    ctx,
    "discriminator",
    params({ propertyName: name, error: str("missing") }),
    messages.discriminatorMissing(propertyName),
    { at },
  );
  const notString = failWith(
    ctx,
    "discriminator",
    params({ propertyName: name, error: str("type") }),
    messages.discriminatorType,
    { at, path: tagPath },
  );
  out.line(code`if (${tag} === undefined) ${missing}`);
  out.line(code`else if (typeof ${tag} !== "string") ${notString}`);
  out.open(code`else switch (${tag})`);
  for (const [value, target] of cases) emitCase(ctx, out, discrimination, value, target, usePlain);
  const tags = [...cases.keys()];
  const allowed = ctx.fn.module.jsonConstant("value", tags);
  const unknown = params({ propertyName: name, error: str("value"), allowedValues: allowed });
  out.line(
    code`default: ${failWith(ctx, "discriminator", unknown, messages.discriminatorValue(tags), { at, path: tagPath })}`,
  );
  out.close();
}

/**
 * With `defaultMapping`: a tag a case names selects that case; any other (absent, not a string, or
 * a value nothing maps) selects the default schema, which then judges the object, tag included.
 */
function emitWithFallback(
  ctx: ObjectNodeCtx,
  out: Block,
  discrimination: Discrimination<SchemaLocation>,
  tag: Code,
  usePlain: Code,
): void {
  const unmatched = ctx.fn.fresh("u");
  out.line(code`let ${unmatched} = false;`);
  out.open(code`switch (${tag})`);
  for (const [value, target] of discrimination.cases) emitCase(ctx, out, discrimination, value, target, usePlain);
  out.line(code`default: ${unmatched} = true;`);
  out.close();
  out.open(code`if (${unmatched})`);
  emitTarget(ctx, out, discrimination, discrimination.fallback as NonNullable<typeof discrimination.fallback>);
  out.close();
}

function emitCase(
  ctx: ObjectNodeCtx,
  out: Block,
  discrimination: Discrimination<SchemaLocation>,
  value: string,
  target: DiscriminatorCase<SchemaLocation>,
  usePlain: Code,
): void {
  if (target === "ambiguous") {
    out.line(code`case ${str(value)}: ${usePlain} = true; break;`);
    return;
  }
  out.open(code`case ${str(value)}:`);
  emitTarget(ctx, out, discrimination, target);
  out.line(code`break;`);
  out.close();
}

/** Validates the object against what a tag selects: a branch in place, or a schema outside the branches. */
function emitTarget(
  ctx: ObjectNodeCtx,
  out: Block,
  discrimination: Discrimination<SchemaLocation>,
  target: number | { readonly location: SchemaLocation },
): void {
  if (typeof target === "number") compileSubschema(inPlace(ctx, [discrimination.keyword, target]), out);
  else emitCall(ctx, out, target.location);
}
