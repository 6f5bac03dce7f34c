/**
 * RFC 6901 JSON pointers, the one module for them: as URI fragments ("#/paths/~1venues/post", in
 * the model and diagnostics) or plain ("/properties/a", in the schema compiler).
 */

/** Escapes one reference token: "~" → "~0", "/" → "~1". */
export function escapePointerSegment(segment: string | number): string {
  const text = String(segment);
  if (text.indexOf("~") < 0 && text.indexOf("/") < 0) return text;
  return text.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** Unescapes one reference token. */
export function unescapePointerSegment(segment: string): string {
  if (segment.indexOf("~") < 0) return segment;
  return segment.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** Joins segments onto a pointer: appendPointer("#/paths", "/venues") === "#/paths/~1venues". */
export function appendPointer(pointer: string, ...segments: (string | number)[]): string {
  return segments.reduce<string>((acc, segment) => `${acc}/${escapePointerSegment(segment)}`, pointer);
}

/** The segments of a "#/a/b" or "/a/b" pointer; URI-encoded characters in a fragment are decoded. */
export function pointerSegments(pointer: string): string[] {
  const body = pointer.startsWith("#") ? safeDecode(pointer.slice(1)) : pointer;
  if (body === "") return [];
  return body.split("/").slice(1).map(unescapePointerSegment);
}

function safeDecode(fragment: string): string {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
}

/** Follows a pointer into a document (own properties, array indexes); undefined when any step is missing. */
export function resolvePointer(document: unknown, pointer: string): unknown {
  let node: unknown = document;
  for (const segment of pointerSegments(pointer)) {
    if (Array.isArray(node)) {
      if (!/^(0|[1-9][0-9]*)$/.test(segment)) return undefined;
      node = node[Number(segment)];
    } else if (typeof node === "object" && node !== null && Object.hasOwn(node, segment)) {
      node = (node as Record<string, unknown>)[segment];
    } else {
      return undefined;
    }
  }
  return node;
}
