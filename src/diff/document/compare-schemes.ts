import { appendPointer, resolvePointer } from "../../json-pointer.js";
import { isRecord } from "../../json-value.js";
import type { SecuritySchemeModel } from "../../model/types.js";
import type { Finding } from "../findings/finding.js";
import { isDocumentationKey } from "../findings/keyword-change.js";
import { compareResidual, rawPair } from "../findings/residual.js";
import { sameJson, stableStringify } from "../findings/stable-json.js";
import type { DiffSides } from "../operations/operation-context.js";

/** What the security schemes compare to: findings, and the schemes renamed (old name → new name). */
export interface SchemeComparison {
  readonly findings: readonly Finding[];
  readonly renamed: ReadonlyMap<string, string>;
}

/**
 * Security schemes by name. A scheme whose definition changed (apiKey `in` or header name, http
 * scheme, type, OAuth flows and their URLs) breaks every client. The scopes an OAuth flow declares
 * are compared on their own: declaring one or dropping one changes no call (what an operation
 * requires is compared in the operation). A scheme that disappeared while one with the same
 * definition appeared was renamed: no HTTP change, but the route table names it.
 */
export function compareSecuritySchemes(sides: DiffSides): SchemeComparison {
  const before = sides.base.model.securitySchemes;
  const after = sides.head.model.securitySchemes;
  const definition = (side: "base" | "head", scheme: SecuritySchemeModel): string =>
    definitionOf(sides[side].loaded.document, scheme.pointer);
  const gone = before.filter((old) => !after.some((now) => now.name === old.name));
  const fresh = after.filter((now) => !before.some((old) => old.name === now.name));
  const renamed = new Map(
    gone.flatMap((old) => {
      const now = fresh.find((candidate) => definition("head", candidate) === definition("base", old));
      return now === undefined ? [] : [[old.name, now.name] as const];
    }),
  );
  const findings: Finding[] = [
    ...before.flatMap((old) =>
      compareScheme(
        sides,
        old,
        after.find((now) => now.name === old.name),
        renamed,
      ),
    ),
    ...fresh
      .filter((now) => ![...renamed.values()].includes(now.name))
      .map(
        (now): Finding => ({
          rule: "api-security-scheme-added",
          pointer: now.pointer,
          after: now.name,
          message: `security scheme ${now.name}: added`,
        }),
      ),
  ];
  return { findings, renamed };
}

function compareScheme(
  sides: DiffSides,
  old: SecuritySchemeModel,
  now: SecuritySchemeModel | undefined,
  renamed: ReadonlyMap<string, string>,
): Finding[] {
  const newName = renamed.get(old.name);
  if (newName !== undefined)
    return [
      {
        rule: "api-security-scheme-renamed",
        pointer: old.pointer,
        before: old.name,
        after: newName,
        message: `security scheme ${old.name}: renamed to ${newName} (the route table and authenticators see the new name)`,
      },
    ];
  if (now === undefined)
    return [
      {
        rule: "api-security-scheme-removed",
        pointer: old.pointer,
        at: "#/components",
        before: old.name,
        message: `security scheme ${old.name}: removed`,
      },
    ];
  const [was, is] = [
    definitionNode(sides.base.loaded.document, old.pointer),
    definitionNode(sides.head.loaded.document, now.pointer),
  ];
  const changed: Finding[] = sameJson(was, is)
    ? []
    : [
        {
          rule: "api-security-scheme-changed",
          pointer: now.pointer,
          before: summary(old),
          after: summary(now),
          message: `security scheme ${now.name}: ${describeChange(old, now, { was, is })}; clients must obtain or send their credentials differently`,
        },
      ];
  const documentation = new Set(
    Object.keys({
      ...objectAt(sides.base.loaded.document, old.pointer),
      ...objectAt(sides.head.loaded.document, now.pointer),
    }).filter((key) => !isDocumentationKey(key)),
  );
  return [
    ...changed,
    ...compareScopes(sides, old, now),
    ...compareResidual(
      rawPair(
        sides.base.loaded.document,
        sides.head.loaded.document,
        { base: old.pointer, head: now.pointer },
        `security scheme ${now.name}`,
      ),
      documentation,
    ),
  ];
}

/** "changed from apiKey in header X-Key to http bearer", or the fields that changed: "flows.implicit.authorizationUrl changed". */
function describeChange(
  old: SecuritySchemeModel,
  now: SecuritySchemeModel,
  definitions: { was: unknown; is: unknown },
): string {
  if (summary(old) !== summary(now)) return `changed from ${summary(old)} to ${summary(now)}`;
  return `${changedFields(definitions.was, definitions.is, "").join(", ")} changed`;
}

/** The dotted paths of the values that differ between two definitions. */
function changedFields(before: unknown, after: unknown, path: string): string[] {
  if (!isRecord(before) || !isRecord(after)) return sameJson(before, after) ? [] : [path];
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  return keys.flatMap((key) => changedFields(before[key], after[key], path === "" ? key : `${path}.${key}`));
}

/** Scopes an OAuth flow on both sides now declares or no longer declares; a scope's description is documentation. */
function compareScopes(sides: DiffSides, old: SecuritySchemeModel, now: SecuritySchemeModel): Finding[] {
  const [before, after] = [
    scopesOf(sides.base.loaded.document, old.pointer),
    scopesOf(sides.head.loaded.document, now.pointer),
  ];
  return [...before].flatMap(([flow, was]) => {
    const is = after.get(flow);
    if (is === undefined) return [];
    const pointer = appendPointer(now.pointer, "flows", flow, "scopes");
    const [added, removed] = [
      Object.keys(is).filter((scope) => !(scope in was)),
      Object.keys(was).filter((scope) => !(scope in is)),
    ];
    const redescribed = Object.keys(is).filter((scope) => scope in was && !sameJson(was[scope], is[scope]));
    const declared = [
      ...(added.length > 0 ? [`${added.join(", ")} now declared`] : []),
      ...(removed.length > 0 ? [`${removed.join(", ")} no longer declared`] : []),
    ];
    return [
      ...(declared.length > 0
        ? [
            {
              rule: "api-security-scheme-scopes-changed" as const,
              pointer,
              before: Object.keys(was),
              after: Object.keys(is),
              message: `security scheme ${now.name}, ${flow} flow: scope(s) ${declared.join("; ")}`,
            },
          ]
        : []),
      ...(redescribed.length > 0
        ? [
            {
              rule: "documentation-changed" as const,
              pointer,
              message: `security scheme ${now.name}, ${flow} flow: description of scope(s) ${redescribed.join(", ")} changed`,
            },
          ]
        : []),
    ];
  });
}

/** The scopes (name → description) each OAuth flow of a scheme declares. */
function scopesOf(document: unknown, pointer: string): Map<string, Record<string, unknown>> {
  const flows = objectAt(document, pointer).flows;
  if (!isRecord(flows)) return new Map();
  return new Map(
    Object.entries(flows).flatMap(([flow, value]) =>
      isRecord(value) && isRecord(value.scopes) ? [[flow, value.scopes] as const] : [],
    ),
  );
}

/** A scheme's definition without its documentation (the http scheme in lower case, OAuth flows without their scopes). */
function definitionNode(document: unknown, pointer: string): Record<string, unknown> {
  const node = objectAt(document, pointer);
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key]) => !isDocumentationKey(key))
      .map(([key, value]) => [
        key,
        key === "scheme" && typeof value === "string"
          ? value.toLowerCase()
          : key === "flows"
            ? withoutScopes(value)
            : value,
      ]),
  );
}

function withoutScopes(flows: unknown): unknown {
  if (!isRecord(flows)) return flows;
  return Object.fromEntries(
    Object.entries(flows).map(([name, flow]) => [
      name,
      isRecord(flow) ? Object.fromEntries(Object.entries(flow).filter(([key]) => key !== "scopes")) : flow,
    ]),
  );
}

/** A scheme's definition as comparable text. */
function definitionOf(document: unknown, pointer: string): string {
  return stableStringify(definitionNode(document, pointer));
}

function objectAt(document: unknown, pointer: string): Record<string, unknown> {
  const node = resolvePointer(document, pointer);
  return isRecord(node) ? node : {};
}

/** "apiKey in header X-API-KEY", "http bearer". */
function summary(scheme: SecuritySchemeModel): string {
  if (scheme.type === "apiKey") return `apiKey in ${scheme.in ?? "?"} ${scheme.parameterName ?? "?"}`;
  return scheme.type === "http" ? `http ${scheme.scheme ?? "?"}` : scheme.type;
}
