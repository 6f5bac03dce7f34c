import { resolvePointer } from "../../json-pointer.js";
import { isRecord } from "../../json-value.js";
import type { SecuritySchemeModel } from "../../model/types.js";
import type { Finding } from "../finding.js";
import { isDocumentationKey } from "../keyword-change.js";
import type { DiffSides } from "../operations/operation-context.js";
import { compareResidual, rawPair } from "../residual.js";
import { stableStringify } from "../stable-json.js";

/** What the security schemes compare to: findings, and the schemes renamed (old name → new name). */
export interface SchemeComparison {
  readonly findings: readonly Finding[];
  readonly renamed: ReadonlyMap<string, string>;
}

/**
 * Security schemes by name. A scheme whose definition changed (apiKey `in` or header name, http
 * scheme, type, flows) breaks every client. A scheme that disappeared while one with the same
 * definition appeared was renamed: no HTTP change, but the route table names it.
 */
export function compareSecuritySchemes(sides: DiffSides): SchemeComparison {
  const before = sides.base.model.securitySchemes;
  const after = sides.head.model.securitySchemes;
  const definition = (side: "base" | "head", scheme: SecuritySchemeModel): string => definitionOf(sides[side].loaded.document, scheme.pointer);
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
      .map((now): Finding => ({ rule: "api-security-scheme-added", pointer: now.pointer, after: now.name, message: `security scheme ${now.name}: added` })),
  ];
  return { findings, renamed };
}

function compareScheme(sides: DiffSides, old: SecuritySchemeModel, now: SecuritySchemeModel | undefined, renamed: ReadonlyMap<string, string>): Finding[] {
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
  if (now === undefined) return [{ rule: "api-security-scheme-removed", pointer: old.pointer, at: "#/components", before: old.name, message: `security scheme ${old.name}: removed` }];
  const [was, is] = [definitionOf(sides.base.loaded.document, old.pointer), definitionOf(sides.head.loaded.document, now.pointer)];
  const changed: Finding[] =
    was === is
      ? []
      : [
          {
            rule: "api-security-scheme-changed",
            pointer: now.pointer,
            before: summary(old),
            after: summary(now),
            message: `security scheme ${now.name}: changed from ${summary(old)} to ${summary(now)}; every client must send its credentials differently`,
          },
        ];
  const documentation = new Set(Object.keys({ ...objectAt(sides.base.loaded.document, old.pointer), ...objectAt(sides.head.loaded.document, now.pointer) }).filter((key) => !isDocumentationKey(key)));
  return [...changed, ...compareResidual(rawPair(sides.base.loaded.document, sides.head.loaded.document, { base: old.pointer, head: now.pointer }, `security scheme ${now.name}`), documentation)];
}

/** A scheme's definition without its documentation, as comparable text. */
function definitionOf(document: unknown, pointer: string): string {
  const node = objectAt(document, pointer);
  return stableStringify(
    Object.fromEntries(
      Object.entries(node)
        .filter(([key]) => !isDocumentationKey(key))
        .map(([key, value]) => [key, key === "scheme" && typeof value === "string" ? value.toLowerCase() : value]),
    ),
  );
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
