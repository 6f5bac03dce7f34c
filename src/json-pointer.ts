/** RFC 6901 JSON pointers, written as URI fragments ("#/paths/~1venues/post"). */

export function escapePointerSegment(segment: string | number): string {
  return String(segment).replace(/~/g, "~0").replace(/\//g, "~1");
}

export function unescapePointerSegment(segment: string): string {
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

/** Follows a pointer into a document; undefined when any step is missing. */
export function resolvePointer(document: unknown, pointer: string): unknown {
  let node: unknown = document;
  for (const segment of pointerSegments(pointer)) {
    if (node === null || typeof node !== "object") return undefined;
    if (!Object.prototype.hasOwnProperty.call(node, segment)) return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return node;
}
