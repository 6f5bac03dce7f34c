/**
 * The types of a discriminator's `defaultMapping` (OpenAPI 3.2). openapi-typescript gives every
 * schema a discriminator selects its tag as a required property of the values that select it (the
 * schema's name when nothing maps to it). The schema `defaultMapping` names is also selected by an
 * absent tag, or one nothing maps: its tag may be absent, so it is typed as the document writes it
 * (a tag property of its own keeps its type, optional unless it is required), and where it
 * inherits the discriminated base (`allOf: [$ref: Base]`) it keeps the base's tag property,
 * optional, in place of the one openapi-typescript would add.
 */
import type { scanDiscriminators } from "openapi-typescript";
import { appendPointer } from "../../json-pointer.js";
import { isRecord } from "../../json-value.js";
import { mappingRef } from "../../schema/discriminator.js";

type Scan = typeof scanDiscriminators;
type Scanned = ReturnType<Scan>;
type Resolve = (document: never, ref: string, options: { silent: boolean }) => unknown;

interface DefaultTarget {
  readonly ref: string;
  readonly base: string;
  readonly propertyName: string;
  readonly tagSchema: unknown;
}

/** openapi-typescript's scan of the discriminators, with the schemas `defaultMapping` names typed as they are written. */
export function scanWithDefaults(
  document: Parameters<Scan>[0],
  options: Parameters<Scan>[1],
  scan: Scan,
  resolve: Resolve,
): Scanned {
  const targets = defaultTargets(document);
  const snapshots = targets.map((target) => {
    const node = resolve(document as never, target.ref, { silent: true });
    return { target, node, written: isRecord(node) ? structuredClone(node) : undefined };
  });
  const scanned = scan(document, options);
  for (const { target, node, written } of snapshots) {
    if (!isRecord(node) || written === undefined) continue;
    for (const key of Object.keys(node)) delete node[key];
    Object.assign(node, written);
    if (!scanned.refsHandled.includes(target.ref)) scanned.refsHandled.push(target.ref);
    const inherits =
      Array.isArray(node.allOf) && node.allOf.some((part) => isRecord(part) && part.$ref === target.base);
    if (inherits)
      (node.allOf as unknown[]).push({
        type: "object",
        properties: { [target.propertyName]: target.tagSchema ?? { type: "string" } },
      });
  }
  return scanned;
}

/** Every discriminator with a `defaultMapping`: the schema it names, the discriminated schema and its tag. */
function defaultTargets(document: unknown): DefaultTarget[] {
  const found: DefaultTarget[] = [];
  const visit = (node: unknown, at: string): void => {
    if (Array.isArray(node)) {
      for (const [index, item] of node.entries()) visit(item, appendPointer(at, index));
      return;
    }
    if (!isRecord(node)) return;
    const discriminator = node.discriminator;
    if (
      isRecord(discriminator) &&
      typeof discriminator.defaultMapping === "string" &&
      typeof discriminator.propertyName === "string"
    ) {
      const properties = isRecord(node.properties) ? node.properties : {};
      found.push({
        ref: mappingRef(discriminator.defaultMapping),
        base: at,
        propertyName: discriminator.propertyName,
        tagSchema: properties[discriminator.propertyName],
      });
    }
    for (const [key, child] of Object.entries(node))
      if (key !== "example" && key !== "examples" && key !== "enum" && key !== "const")
        visit(child, appendPointer(at, key));
  };
  visit(document, "#");
  return found;
}
