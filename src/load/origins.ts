/**
 * Where each place of a bundled document was written. Bundling a document of several files
 * writes what other files hold into the entry document (a schema as a component of its own, a
 * Path Item or a Response where it is first used), so a pointer of the bundled document may name
 * a place of another file. The origins map it back: the file, and the pointer in that file, where
 * that place was written, so a diagnostic about it names the author's file, line and column.
 */
import { fileURLToPath, pathToFileURL } from "node:url";
import { appendPointer, pointerSegments, resolvePointer } from "../json-pointer.js";
import { isRecord } from "../json-value.js";

/** A place as written: its file (absolute) and a pointer in it ("#/get/responses/200", "#" for the file). */
export interface Origin {
  readonly file: string;
  readonly pointer: string;
}

/** The origin of every pointer of one bundled document. */
export interface Origins {
  /** where the place at `pointer` ("#/components/schemas/Tea/type") was written */
  of(pointer: string): Origin;
}

/** A place being walked in a file as written: the file, the pointer and the value there. */
interface Written extends Origin {
  readonly node: unknown;
}

/**
 * The origins of a bundled document, found by walking it beside the documents it was bundled from
 * (`documents`: each file's document as bundling read it, by absolute path, the entry's among
 * them). Where the bundled document holds content and the file holds a `$ref` there, the walk
 * follows the `$ref` into the file (or place) it names, and records the switch; where the bundled
 * document holds a `$ref`, the content is elsewhere and the walk stops.
 */
export function traceOrigins(bundled: unknown, entry: string, documents: ReadonlyMap<string, unknown>): Origins {
  const switches = new Map<string, Origin>();
  const onPath = new Set<unknown>();
  const walk = (node: unknown, at: string, written: Written): void => {
    if (!isRecord(node) && !Array.isArray(node)) return;
    if (isReference(node) || onPath.has(node)) return;
    const place = followReferences(written, documents);
    if (place === undefined) return;
    if (place !== written) switches.set(at, { file: place.file, pointer: place.pointer });
    onPath.add(node);
    for (const [key, child] of Object.entries(node)) {
      const from = childOf(place.node, key);
      if (from !== undefined)
        walk(child, appendPointer(at, key), { ...place, pointer: appendPointer(place.pointer, key), node: from });
    }
    onPath.delete(node);
  };
  walk(bundled, "#", { file: entry, pointer: "#", node: documents.get(entry) });
  return { of: (pointer) => originOf(switches, entry, pointer) };
}

/** The origin of a pointer: its longest prefix where the walk switched place, and the rest of it. */
function originOf(switches: ReadonlyMap<string, Origin>, entry: string, pointer: string): Origin {
  const segments = pointerSegments(pointer);
  for (let length = segments.length; length >= 0; length--) {
    const found = switches.get(appendPointer("#", ...segments.slice(0, length)));
    if (found !== undefined)
      return { file: found.file, pointer: appendPointer(found.pointer, ...segments.slice(length)) };
  }
  return { file: entry, pointer };
}

function isReference(node: object): boolean {
  return isRecord(node) && typeof node.$ref === "string";
}

/** The value under a key of an object or an index of an array, if there is one. */
function childOf(node: unknown, key: string): unknown {
  if (Array.isArray(node)) return /^\d+$/.test(key) ? node[Number(key)] : undefined;
  return isRecord(node) && Object.hasOwn(node, key) ? node[key] : undefined;
}

/** The place a chain of `$ref`s in the written files leads to (the place itself when it holds none). */
function followReferences(written: Written, documents: ReadonlyMap<string, unknown>): Written | undefined {
  let place = written;
  for (const seen = new Set<string>(); isRecord(place.node) && typeof place.node.$ref === "string"; ) {
    const key = `${place.file}${place.pointer}`;
    if (seen.has(key)) return undefined;
    seen.add(key);
    const next = referenced(place.file, place.node.$ref, documents);
    if (next === undefined) return undefined;
    place = next;
  }
  return place;
}

/** What a `$ref` written in `file` names: a place of that file or of another one of the document. */
function referenced(file: string, ref: string, documents: ReadonlyMap<string, unknown>): Written | undefined {
  let url: URL;
  let pointer: string;
  try {
    url = new URL(ref, pathToFileURL(file));
    pointer = appendPointer("#", ...pointerSegments(`#${decodeURIComponent(url.hash.slice(1))}`));
  } catch {
    return undefined;
  }
  if (url.protocol !== "file:") return undefined;
  url.hash = "";
  const target = fileURLToPath(url);
  if (!documents.has(target)) return undefined;
  const node = resolvePointer(documents.get(target), pointer);
  return node === undefined ? undefined : { file: target, pointer, node };
}
