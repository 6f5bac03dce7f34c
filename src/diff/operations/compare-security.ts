import { appendPointer, resolvePointer } from "../../json-pointer.js";
import { isRecord } from "../../json-value.js";
import type { SecurityRequirementModel } from "../../model/types.js";
import type { Finding } from "../findings/finding.js";
import type { OperationContext } from "./operation-context.js";

type Alternative = SecurityRequirementModel;

/**
 * An operation's security requirements: authentication now required or no longer required, a
 * way to authenticate that no longer suffices (or a new one), scopes added or removed. Scheme
 * names are read through `renamed` (old name → new name), so renaming a scheme changes nothing here.
 */
export function compareSecurity(ctx: OperationContext, renamed: ReadonlyMap<string, string>): Finding[] {
  const before = ctx.before.security.map((alternative) => rename(alternative, renamed));
  const after = ctx.after.security;
  const pointer = securityPointer(ctx);
  const finding = (rule: Finding["rule"], message: string): Finding => ({
    rule,
    pointer,
    before: describe(before),
    after: describe(after),
    message: `security: ${message}`,
  });
  if (isOptional(before) && !isOptional(after))
    return [finding("api-security-added", `authentication is now required (${describe(after)})`)];
  if (!isOptional(before) && isOptional(after))
    return [finding("api-security-removed", "authentication is no longer required")];
  if (isOptional(before)) return [];
  return [
    ...before.flatMap((old) => compareAlternative(old, after, finding)),
    ...after
      .filter((now) => !before.some((old) => sameSchemes(old, now) || includes(now, old)))
      .map((now) => finding("api-security-alternative-added", `${describeOne(now)} now also suffices`)),
  ];
}

function compareAlternative(
  old: Alternative,
  after: readonly Alternative[],
  finding: (rule: Finding["rule"], message: string) => Finding,
): Finding[] {
  const same = after.find((now) => sameSchemes(old, now));
  if (same === undefined)
    return after.some((now) => includes(old, now))
      ? []
      : [finding("api-security-alternative-removed", `${describeOne(old)} no longer suffices`)];
  return old.schemes.flatMap((scheme) => {
    const partner = same.schemes.find((s) => s.name === scheme.name);
    const added = (partner?.scopes ?? []).filter((scope) => !scheme.scopes.includes(scope));
    const removed = scheme.scopes.filter((scope) => !(partner?.scopes ?? []).includes(scope));
    return [
      ...(added.length > 0
        ? [finding("api-security-scope-added", `${scheme.name} now needs scope(s) ${added.join(", ")}`)]
        : []),
      ...(removed.length > 0
        ? [finding("api-security-scope-removed", `${scheme.name} no longer needs scope(s) ${removed.join(", ")}`)]
        : []),
    ];
  });
}

/** No requirement, or an empty alternative ({}): calls without credentials are accepted. */
function isOptional(alternatives: readonly Alternative[]): boolean {
  return alternatives.length === 0 || alternatives.some((alternative) => alternative.schemes.length === 0);
}

function sameSchemes(a: Alternative, b: Alternative): boolean {
  return names(a) === names(b);
}

/** Whether `outer` sends every credential `inner` asks for (with its scopes): `inner` is then satisfied. */
function includes(outer: Alternative, inner: Alternative): boolean {
  return inner.schemes.every((scheme) => {
    const partner = outer.schemes.find((s) => s.name === scheme.name);
    return partner !== undefined && scheme.scopes.every((scope) => partner.scopes.includes(scope));
  });
}

function rename(alternative: Alternative, renamed: ReadonlyMap<string, string>): Alternative {
  return {
    schemes: alternative.schemes
      .map((scheme) => ({ ...scheme, name: renamed.get(scheme.name) ?? scheme.name }))
      .sort((a, b) => a.name.localeCompare(b.name)),
  };
}

function names(alternative: Alternative): string {
  return alternative.schemes.map((scheme) => scheme.name).join(" + ");
}

function describeOne(alternative: Alternative): string {
  return alternative.schemes.length === 0 ? "no authentication" : names(alternative);
}

function describe(alternatives: readonly Alternative[]): string {
  return alternatives.length === 0 ? "none" : alternatives.map(describeOne).join(" or ");
}

/** The operation's own `security`, or the document's that it inherits. */
function securityPointer(ctx: OperationContext): string {
  const node = resolvePointer(ctx.sides.head.loaded.document, ctx.after.pointer);
  return isRecord(node) && node.security !== undefined ? appendPointer(ctx.after.pointer, "security") : "#/security";
}
