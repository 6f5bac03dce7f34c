/**
 * OpenAPI 3.2's operations beyond a Path Item's eight methods, in openapi-typescript's `paths`:
 * openapi-typescript types `get` to `trace` only, so each `query` operation and each of
 * `additionalOperations` is handed to it as the `post` of a Path Item of its own (with the
 * path's parameters), under a key no path has; in its output, that operation's type is moved to
 * the real path's entry, as `query` or under `additionalOperations` by its method
 * (`paths["/flights/{id}"]["additionalOperations"]["PURGE"]`), and the stand-in entry removed.
 */
import { createRequire } from "node:module";
import type * as TypeScript from "typescript";
import { isRecord } from "../../json-value.js";

/** Where a stand-in Path Item's operation goes: its path, and `query` or an additional method. */
interface Moved {
  readonly path: string;
  readonly member: { readonly query: true } | { readonly additional: string };
}

/** The stand-ins made in a types document, by their key under `paths`. */
export type StandIns = ReadonlyMap<string, Moved>;

/** The prefix of a stand-in's key: a path starts with "/", so no path has it. */
const STAND_IN = "\u0000";

/**
 * Moves the `query` and `additionalOperations` operations of every Path Item of `paths` (in the
 * copy given to openapi-typescript) to stand-in Path Items, and says where each goes back.
 */
export function standInExtraOperations(copy: Record<string, unknown>): StandIns {
  const standIns = new Map<string, Moved>();
  const paths = copy.paths;
  if (!isRecord(paths)) return standIns;
  for (const [path, item] of Object.entries(paths)) {
    if (!isRecord(item)) continue;
    const add = (operation: unknown, member: Moved["member"]): void => {
      const key = `${STAND_IN}${standIns.size}`;
      paths[key] = { ...(item.parameters === undefined ? {} : { parameters: item.parameters }), post: operation };
      standIns.set(key, { path, member });
    };
    if (isRecord(item.query)) add(item.query, { query: true });
    delete item.query;
    if (isRecord(item.additionalOperations))
      for (const [method, operation] of Object.entries(item.additionalOperations))
        add(operation, { additional: method });
    delete item.additionalOperations;
  }
  return standIns;
}

type Node = TypeScript.Node;

/** openapi-typescript's output with each stand-in's operation moved to its path. */
export function placeExtraOperations(nodes: readonly Node[], standIns: StandIns): Node[] {
  if (standIns.size === 0) return [...nodes];
  const ts = createRequire(import.meta.url)("typescript") as typeof TypeScript;
  return nodes.map((node) =>
    ts.isInterfaceDeclaration(node) && node.name.text === "paths" ? placeIn(ts, node, standIns) : node,
  );
}

function placeIn(
  ts: typeof TypeScript,
  paths: TypeScript.InterfaceDeclaration,
  standIns: StandIns,
): TypeScript.InterfaceDeclaration {
  const f = ts.factory;
  const found = new Map<string, { query?: TypeScript.TypeNode; additional: TypeScript.TypeElement[] }>();
  for (const member of paths.members) {
    const moved = standIns.get(memberName(ts, member) ?? "");
    const type = moved === undefined ? undefined : postType(ts, member);
    if (moved === undefined || type === undefined) continue;
    const entry = found.get(moved.path) ?? { additional: [] };
    if ("query" in moved.member) entry.query = type;
    else
      entry.additional.push(
        f.createPropertySignature(undefined, f.createStringLiteral(moved.member.additional), undefined, type),
      );
    found.set(moved.path, entry);
  }
  const members = paths.members.flatMap((member): TypeScript.TypeElement[] => {
    const name = memberName(ts, member) ?? "";
    if (standIns.has(name)) return [];
    const extra = found.get(name);
    if (extra === undefined || !ts.isPropertySignature(member) || member.type === undefined) return [member];
    if (!ts.isTypeLiteralNode(member.type)) return [member];
    const added: TypeScript.TypeElement[] = [];
    if (extra.query !== undefined) added.push(f.createPropertySignature(undefined, "query", undefined, extra.query));
    if (extra.additional.length > 0)
      added.push(
        f.createPropertySignature(
          undefined,
          "additionalOperations",
          undefined,
          f.createTypeLiteralNode(extra.additional),
        ),
      );
    const literal = f.updateTypeLiteralNode(member.type, f.createNodeArray([...member.type.members, ...added]));
    return [f.updatePropertySignature(member, member.modifiers, member.name, member.questionToken, literal)];
  });
  return f.updateInterfaceDeclaration(
    paths,
    paths.modifiers,
    paths.name,
    paths.typeParameters,
    paths.heritageClauses,
    members,
  );
}

function memberName(ts: typeof TypeScript, member: TypeScript.TypeElement): string | undefined {
  const name = member.name;
  return name !== undefined && (ts.isStringLiteral(name) || ts.isIdentifier(name)) ? name.text : undefined;
}

/** The type of a stand-in Path Item's `post`. */
function postType(ts: typeof TypeScript, member: TypeScript.TypeElement): TypeScript.TypeNode | undefined {
  if (!ts.isPropertySignature(member) || member.type === undefined || !ts.isTypeLiteralNode(member.type))
    return undefined;
  const post = member.type.members.find((inner) => memberName(ts, inner) === "post");
  return post !== undefined && ts.isPropertySignature(post) ? post.type : undefined;
}
