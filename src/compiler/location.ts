/** Where a schema lives: a document index and a JSON pointer inside it ("" is the root). */
export interface SchemaLocation {
  readonly doc: number;
  readonly ptr: string;
}

/** Stable string key of a location, usable in maps. */
export function locationKey(location: SchemaLocation): string {
  return `${location.doc}#${location.ptr}`;
}

/** Escapes one reference token (RFC 6901). */
export function escapeToken(token: string): string {
  if (token.indexOf("~") < 0 && token.indexOf("/") < 0) return token;
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** Unescapes one reference token (RFC 6901). */
export function unescapeToken(token: string): string {
  if (token.indexOf("~") < 0) return token;
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** The location of a child value. */
export function childLocation(location: SchemaLocation, ...tokens: readonly (string | number)[]): SchemaLocation {
  let ptr = location.ptr;
  for (const token of tokens) ptr += "/" + escapeToken(String(token));
  return { doc: location.doc, ptr };
}

/** Splits a JSON pointer into unescaped tokens. */
export function pointerTokens(ptr: string): string[] {
  return ptr === "" ? [] : ptr.slice(1).split("/").map(unescapeToken);
}

/** Follows a JSON pointer; `undefined` when it leads nowhere. */
export function followPointer(root: unknown, ptr: string): unknown {
  let node = root;
  for (const token of pointerTokens(ptr)) {
    if (Array.isArray(node)) {
      if (!/^(0|[1-9][0-9]*)$/.test(token)) return undefined;
      node = node[Number(token)];
    } else if (typeof node === "object" && node !== null && Object.hasOwn(node, token)) {
      node = (node as Record<string, unknown>)[token];
    } else {
      return undefined;
    }
  }
  return node;
}

/** A JSON pointer written as a URI fragment (`#/properties/a%20b`), as Ajv reports schema paths. */
export function pointerFragment(ptr: string): string {
  if (FRAGMENT_SAFE.test(ptr)) return "#" + ptr;
  return "#" + ptr.split("/").map(encodeFragmentToken).join("/");
}

const FRAGMENT_SAFE = /^[A-Za-z0-9_.!~*'()$@:/-]*$/;

function encodeFragmentToken(token: string): string {
  return encodeURIComponent(token).replace(/%24/g, "$").replace(/%40/g, "@").replace(/%3A/g, ":");
}
