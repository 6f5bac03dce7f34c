import type { OperationModel, ParameterModel } from "../../model/types.js";
import type { Finding } from "../findings/finding.js";
import { compareResidual, rawPair } from "../findings/residual.js";
import { compareSchemas } from "../schema/compare-schema.js";
import { shapeOf } from "../schema/normalize.js";
import { acceptsType } from "../schema/shape.js";
import { type OperationContext, schemaContextOf, schemaParts } from "./operation-context.js";

const HANDLED: ReadonlySet<string> = new Set([
  "name",
  "in",
  "required",
  "schema",
  "content",
  "style",
  "explode",
  "allowEmptyValue",
]);

/** Parameters matched by location and name (path parameters by position), then compared one by one. */
export function compareParameters(ctx: OperationContext): Finding[] {
  const before = allParameters(ctx.before);
  const after = allParameters(ctx.after);
  const renames = pathRenames(ctx.before.path, ctx.after.path);
  const partners = new Map(before.map((old) => [old, after.find((now) => isPartner(old, now, renames))]));
  return [
    ...before.flatMap((old) => {
      const now = partners.get(old);
      return now === undefined ? [removedParameter(ctx, old)] : compareParameter(ctx, old, now);
    }),
    ...after.filter((now) => ![...partners.values()].includes(now)).map(addedParameter),
  ];
}

function allParameters(operation: OperationModel): ParameterModel[] {
  const { path, query, header, cookie } = operation.parameters;
  return [...path, ...query, ...header, ...cookie];
}

/** `/venues/{id}` against `/venues/{venueId}`: the names at the same places. */
function pathRenames(before: string, after: string): Map<string, string> {
  const names = (path: string): string[] => [...path.matchAll(/\{([^}]*)\}/g)].map((match) => match[1] ?? "");
  const renamed = names(after);
  return new Map(names(before).map((name, index) => [name, renamed[index] ?? name]));
}

function isPartner(old: ParameterModel, now: ParameterModel, renames: ReadonlyMap<string, string>): boolean {
  if (old.in !== now.in) return false;
  if (old.in === "path") return (renames.get(old.name) ?? old.name) === now.name;
  return old.in === "header" ? old.name.toLowerCase() === now.name.toLowerCase() : old.name === now.name;
}

function label(parameter: ParameterModel): string {
  return `${parameter.in} parameter \`${parameter.name}\``;
}

function removedParameter(ctx: OperationContext, old: ParameterModel): Finding {
  return {
    rule: "request-parameter-removed",
    pointer: old.pointer,
    at: ctx.after.pointer,
    before: old.name,
    message: `${label(old)}: removed (clients that still send it are not told)`,
    typeBreak: "callers",
  };
}

function addedParameter(now: ParameterModel): Finding {
  const rule = now.required ? "new-required-request-parameter" : "new-optional-request-parameter";
  return {
    rule,
    pointer: now.pointer,
    after: now.required ? "required" : "optional",
    message: `${label(now)}: added (${now.required ? "required" : "optional"})`,
    ...(now.required ? { typeBreak: "callers" as const } : {}),
  };
}

function compareParameter(ctx: OperationContext, old: ParameterModel, now: ParameterModel): Finding[] {
  const owner = {
    path: ctx.after.names.pathParamsType,
    query: ctx.after.names.queryType,
    header: ctx.after.names.headersType,
    cookie: undefined,
  }[now.in];
  const schemaCtx = { ...schemaContextOf(ctx, "parameter", label(now), owner), present: now.required };
  const pair = rawPair(
    ctx.sides.base.loaded.document,
    ctx.sides.head.loaded.document,
    { base: old.pointer, head: now.pointer },
    label(now),
    "request",
  );
  return [
    ...renamed(ctx, old, now),
    ...requiredChange(old, now),
    ...serializationChange(ctx, old, now),
    ...emptyValueChange(pair.base, pair.head, now),
    ...compareSchemas(
      schemaCtx,
      schemaParts(ctx.sides.base, old.schemaPointer, old.pointer),
      schemaParts(ctx.sides.head, now.schemaPointer, now.pointer),
    ),
    ...compareResidual(pair, HANDLED),
    ...contentChange(pair.base, pair.head, now, label(now)),
  ];
}

function renamed(ctx: OperationContext, old: ParameterModel, now: ParameterModel): Finding[] {
  if (old.in !== "path" || old.name === now.name) return [];
  const type = ctx.after.names.pathParamsType ?? "the path parameters type";
  const message = `path parameter \`{${old.name}}\` renamed to \`{${now.name}}\`: no HTTP change, but the client's \`path: { ${old.name} }\` key and \`${type}\` change`;
  return [{ rule: "request-path-parameter-renamed", pointer: now.pointer, before: old.name, after: now.name, message }];
}

function requiredChange(old: ParameterModel, now: ParameterModel): Finding[] {
  if (old.required === now.required) return [];
  const rule = now.required ? "request-parameter-became-required" : "request-parameter-became-optional";
  const show = (required: boolean): string => (required ? "required" : "optional");
  return [
    {
      rule,
      pointer: now.pointer,
      before: show(old.required),
      after: show(now.required),
      message: `${label(now)}: became ${show(now.required)}`,
      typeBreak: now.required ? "callers" : "handlers",
    },
  ];
}

/**
 * `style` and `explode` decide the wire format: a change breaks every client. `explode` alone
 * changes nothing for a single primitive value, so it counts only for arrays and objects.
 */
function serializationChange(ctx: OperationContext, old: ParameterModel, now: ParameterModel): Finding[] {
  const shape =
    now.schemaPointer === undefined
      ? undefined
      : shapeOf(ctx.sides.head.schemas, schemaParts(ctx.sides.head, now.schemaPointer, now.pointer));
  const structured =
    now.isArray ||
    old.isArray ||
    (shape !== undefined && (acceptsType(shape.types, "object") || acceptsType(shape.types, "array")));
  if (old.style === now.style && (old.explode === now.explode || !structured)) return [];
  const show = (p: ParameterModel): string => `style ${p.style}, explode ${p.explode}`;
  return [
    {
      rule: "request-parameter-serialization-changed",
      pointer: now.pointer,
      before: show(old),
      after: show(now),
      message: `${label(now)}: serialization changed from ${show(old)} to ${show(now)}`,
    },
  ];
}

/**
 * `allowEmptyValue: true` lets a query parameter be sent empty (`?filter=`): taken away (false is
 * the default), those requests are refused; given, they are accepted. It means nothing elsewhere.
 */
function emptyValueChange(base: unknown, head: unknown, now: ParameterModel): Finding[] {
  const allows = (node: unknown): boolean =>
    (node as { allowEmptyValue?: unknown } | undefined)?.allowEmptyValue === true;
  if (now.in !== "query" || allows(base) === allows(head)) return [];
  const [before, after] = [allows(base), allows(head)];
  return [
    {
      rule: after ? "request-parameter-constraint-loosened" : "request-parameter-constraint-tightened",
      pointer: now.pointer,
      before: `allowEmptyValue ${String(before)}`,
      after: `allowEmptyValue ${String(after)}`,
      message: `${label(now)}: ${after ? "may now be sent empty (allowEmptyValue added)" : "may no longer be sent empty (allowEmptyValue removed)"}`,
    },
  ];
}

/** A parameter given as `content`: its media type decides the encoding. */
function contentChange(base: unknown, head: unknown, now: ParameterModel, name: string): Finding[] {
  const mediaTypes = (node: unknown): string =>
    Object.keys((node as { content?: object } | undefined)?.content ?? {})
      .sort()
      .join(", ");
  if (mediaTypes(base) === mediaTypes(head)) return [];
  return [
    {
      rule: "unclassified",
      direction: "request",
      pointer: now.pointer,
      before: mediaTypes(base),
      after: mediaTypes(head),
      message: `${name}: content media type changed; review by hand`,
    },
  ];
}
