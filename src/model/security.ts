import { appendPointer } from "../json-pointer.js";
import { isRecord } from "../json-value.js";
import { followRef, stringAt } from "./document-nodes.js";
import type { SecurityRequirementModel, SecuritySchemeModel } from "./types.js";

const SCHEME_TYPES = new Set(["apiKey", "http", "oauth2", "openIdConnect", "mutualTLS"]);

export function buildSecuritySchemes(document: Record<string, unknown>): SecuritySchemeModel[] {
  const components = isRecord(document.components) ? document.components : {};
  const schemes = isRecord(components.securitySchemes) ? components.securitySchemes : {};
  return Object.keys(schemes)
    .sort()
    .flatMap((name) => {
      const pointer = appendPointer("#/components/securitySchemes", name);
      const located = followRef(document, schemes[name], pointer);
      const type = located ? stringAt(located.node, "type") : undefined;
      if (located === undefined || type === undefined || !SCHEME_TYPES.has(type)) return [];
      return [toSchemeModel(name, pointer, type as SecuritySchemeModel["type"], located.node)];
    });
}

function toSchemeModel(
  name: string,
  pointer: string,
  type: SecuritySchemeModel["type"],
  node: Record<string, unknown>,
): SecuritySchemeModel {
  const location = stringAt(node, "in");
  const parameterName = stringAt(node, "name");
  const scheme = stringAt(node, "scheme")?.toLowerCase();
  return {
    name,
    pointer,
    type,
    ...(type === "apiKey" && (location === "header" || location === "query" || location === "cookie")
      ? { in: location }
      : {}),
    ...(type === "apiKey" && parameterName !== undefined ? { parameterName } : {}),
    ...(type === "http" && scheme !== undefined ? { scheme } : {}),
  };
}

/** Security requirements, the operation's own when it declares them, else the document's. */
export function buildSecurity(
  operation: Record<string, unknown>,
  document: Record<string, unknown>,
): SecurityRequirementModel[] {
  const declared = operation.security ?? document.security;
  if (!Array.isArray(declared)) return [];
  return declared.filter(isRecord).map((requirement) => ({
    schemes: Object.keys(requirement)
      .sort()
      .map((name) => ({
        name,
        scopes: Array.isArray(requirement[name]) ? (requirement[name] as unknown[]).map(String) : [],
      })),
  }));
}
