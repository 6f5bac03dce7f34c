import { escapePointerSegment } from "../../json-pointer.js";

/** Where a schema lives: a document index and a JSON pointer inside it ("" is the root). */
export interface SchemaLocation {
  readonly doc: number;
  readonly ptr: string;
}

/** Stable string key of a location, usable in maps. */
export function locationKey(location: SchemaLocation): string {
  return `${location.doc}#${location.ptr}`;
}

/** The location of a child value. */
export function childLocation(location: SchemaLocation, ...tokens: readonly (string | number)[]): SchemaLocation {
  let ptr = location.ptr;
  for (const token of tokens) ptr += `/${escapePointerSegment(token)}`;
  return { doc: location.doc, ptr };
}

/** A JSON pointer written as a URI fragment (`#/properties/a%20b`), as Ajv reports schema paths. */
export function pointerFragment(ptr: string): string {
  if (FRAGMENT_SAFE.test(ptr)) return `#${ptr}`;
  return `#${ptr.split("/").map(encodeFragmentToken).join("/")}`;
}

const FRAGMENT_SAFE = /^[A-Za-z0-9_.!~*'()$@:/-]*$/;

function encodeFragmentToken(token: string): string {
  return encodeURIComponent(token).replace(/%24/g, "$").replace(/%40/g, "@").replace(/%3A/g, ":");
}
