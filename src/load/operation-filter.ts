/**
 * Operation filters (`--include-operation`, `--exclude-operation`): which operations of a document
 * are generated, chosen before anything else reads it, so a document whose unwanted part is faulty
 * or ambiguous still generates the rest. A selector is an operationId, `tag:NAME` or `path:GLOB`
 * (`*` any run of characters within a segment, `**` any run across segments, `?` one character);
 * the operations are those the includes select (all, without any), less those the excludes
 * select. Webhooks' operations are selected by operationId and tag too. A selector that names
 * nothing the document has is an error, with the nearest names it has.
 */
import { parse } from "yaml";
import { createDiagnostic, type Diagnostic } from "../diagnostics/diagnostic.js";
import { resolvePointer } from "../json-pointer.js";
import { isRecord } from "../json-value.js";
import type { ReadFile } from "./external-schemas.js";
import { type PathItemOperation, pathItemOperations, removeOperation } from "./path-items.js";
import { copyDangling } from "./prune-document.js";
import { SelfBases } from "./self-base.js";

/** The operations to generate: selectors to include (all operations when none) and to exclude. */
export interface OperationSelection {
  readonly include?: readonly string[];
  readonly exclude?: readonly string[];
}

/**
 * One operation as the selectors see it: where it is (`paths` or `webhooks`, its key, and its place
 * in the Path Item: a method field, or a method of `additionalOperations`), its id and tags.
 */
interface Candidate {
  readonly map: "paths" | "webhooks";
  readonly key: string;
  readonly segments: PathItemOperation["segments"];
  readonly id: string | undefined;
  readonly tags: readonly string[];
}

type Selector =
  | { readonly kind: "id"; readonly text: string; readonly value: string }
  | { readonly kind: "tag"; readonly text: string; readonly value: string }
  | { readonly kind: "path"; readonly text: string; readonly value: string; readonly pattern: RegExp };

/** Operations to take out of a Path Item given by `$ref`, once the document is bundled (./prune-document.ts). */
export interface PendingRemoval {
  readonly map: "paths" | "webhooks";
  readonly key: string;
  /** where each stands in the Path Item: ["get"], ["additionalOperations", "PURGE"] */
  readonly operations: readonly PathItemOperation["segments"][];
}

/** The document with the unselected operations taken out, what is left to take out, and the selectors' errors. */
export interface Selected {
  readonly document: Record<string, unknown>;
  readonly pending: readonly PendingRemoval[];
  readonly diagnostics: readonly Diagnostic[];
}

/** Whether a selection selects anything at all (no selectors: every operation, untouched). */
export function hasSelectors(selection: OperationSelection | undefined): selection is OperationSelection {
  return (selection?.include?.length ?? 0) + (selection?.exclude?.length ?? 0) > 0;
}

/**
 * Takes the operations the selection leaves out of the document (a copy): a Path Item left with
 * none is removed, an operation of a Path Item written in place is removed; those of a Path Item
 * given by `$ref` are returned as pending. Path Items given by `$ref` to other files are read
 * (through `read`) to know their operations.
 */
export async function selectOperations(
  file: string,
  document: Record<string, unknown>,
  selection: OperationSelection,
  read: ReadFile,
): Promise<Selected> {
  const candidates = await listCandidates(file, document, read);
  const include = (selection.include ?? []).map(parseSelector);
  const exclude = (selection.exclude ?? []).map(parseSelector);
  const unknown = [...include, ...exclude].filter((selector) => !candidates.some((c) => matches(selector, c)));
  const diagnostics = unknown.map((selector) => unknownSelector(selector, candidates));
  const kept = candidates.filter(
    (c) => (include.length === 0 || include.some((s) => matches(s, c))) && !exclude.some((s) => matches(s, c)),
  );
  if (diagnostics.length === 0 && kept.length === 0)
    diagnostics.push(
      createDiagnostic("OPERATION_FILTER_INVALID", "the operation filters leave no operation to generate"),
    );
  const copy = structuredClone(document);
  const pending = removeUnselected(copy, candidates, new Set(kept));
  copyDangling(copy, document);
  return { document: copy, pending, diagnostics };
}

function parseSelector(text: string): Selector {
  if (text.startsWith("tag:")) return { kind: "tag", text, value: text.slice(4) };
  if (!text.startsWith("path:")) return { kind: "id", text, value: text };
  const value = text.slice(5);
  return { kind: "path", text, value, pattern: globPattern(value) };
}

/** A path glob as a regular expression: `**` any characters, `*` any but "/", `?` one but "/". */
function globPattern(glob: string): RegExp {
  const source = glob
    .split(/(\*\*|\*|\?)/)
    .map((part) =>
      part === "**" ? ".*" : part === "*" ? "[^/]*" : part === "?" ? "[^/]" : part.replace(/[.+^${}()|[\]\\]/g, "\\$&"),
    )
    .join("");
  return new RegExp(`^${source}$`);
}

function matches(selector: Selector, candidate: Candidate): boolean {
  if (selector.kind === "id") return candidate.id === selector.value;
  if (selector.kind === "tag") return candidate.tags.includes(selector.value);
  return candidate.map === "paths" && selector.pattern.test(candidate.key);
}

/** A selector that selects nothing: an error naming the nearest operationIds, tags or paths. */
function unknownSelector(selector: Selector, candidates: readonly Candidate[]): Diagnostic {
  const [what, names, prefix] =
    selector.kind === "id"
      ? ["operation", candidates.flatMap((c) => (c.id === undefined ? [] : [c.id])), ""]
      : selector.kind === "tag"
        ? ["tag", candidates.flatMap((c) => c.tags), "tag:"]
        : ["path", candidates.filter((c) => c.map === "paths").map((c) => c.key), "path:"];
  const near = nearest(selector.value, [...new Set(names)]).map((name) => `${prefix}${name}`);
  const suggestion = near.length === 0 ? "" : `; the nearest: ${near.join(", ")}`;
  const message =
    selector.kind === "path"
      ? `the operation filter "${selector.text}" matches no path of the document${suggestion}`
      : `the operation filter "${selector.text}" names no ${what} of the document${suggestion}`;
  return createDiagnostic("OPERATION_FILTER_INVALID", message);
}

/** Up to three names nearest to `wanted` by edit distance (case ignored), nearest first. */
function nearest(wanted: string, names: readonly string[]): string[] {
  const target = wanted.toLowerCase();
  return names
    .map((name) => ({ name, distance: editDistance(target, name.toLowerCase()) }))
    .sort((a, b) => a.distance - b.distance || a.name.localeCompare(b.name))
    .slice(0, 3)
    .map(({ name }) => name);
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** Takes the unselected operations out; returns those of Path Items given by `$ref`, left for later. */
function removeUnselected(
  document: Record<string, unknown>,
  candidates: readonly Candidate[],
  kept: ReadonlySet<Candidate>,
): PendingRemoval[] {
  const pending: PendingRemoval[] = [];
  for (const map of ["paths", "webhooks"] as const) {
    const entries = isRecord(document[map]) ? document[map] : {};
    for (const [key, item] of Object.entries(entries)) {
      const own = candidates.filter((c) => c.map === map && c.key === key);
      const dropped = own.filter((c) => !kept.has(c)).map((c) => c.segments);
      if (dropped.length === 0) continue;
      if (dropped.length === own.length) delete entries[key];
      else if (isRecord(item) && typeof item.$ref !== "string") for (const at of dropped) removeOperation(item, at);
      else pending.push({ map, key, operations: dropped });
    }
  }
  return pending;
}

/** Every operation under `paths` and `webhooks`, Path Items given by `$ref` read where they lead. */
async function listCandidates(file: string, document: Record<string, unknown>, read: ReadFile): Promise<Candidate[]> {
  const documents = new Map<string, unknown>([[file, document]]);
  const bases = new SelfBases();
  await bases.lookBeside(file, document, read);
  const candidates: Candidate[] = [];
  for (const map of ["paths", "webhooks"] as const) {
    const entries = isRecord(document[map]) ? document[map] : {};
    for (const [key, item] of Object.entries(entries)) {
      const pathItem = await followPathItem(file, item, documents, read, bases);
      for (const { segments, operation } of pathItemOperations(pathItem)) {
        const id = typeof operation.operationId === "string" ? operation.operationId : undefined;
        const tags = Array.isArray(operation.tags) ? operation.tags.filter((tag) => typeof tag === "string") : [];
        candidates.push({ map, key, segments, id, tags });
      }
    }
  }
  return candidates;
}

/**
 * The Path Item an entry stands for, through `$ref`s within the file or to other files (read once
 * each), which read against the base URI of the file they are in (its `$self`: ./self-base.ts).
 */
async function followPathItem(
  file: string,
  item: unknown,
  documents: Map<string, unknown>,
  read: ReadFile,
  bases: SelfBases,
): Promise<Record<string, unknown> | undefined> {
  let at = file;
  let node = item;
  for (let step = 0; step < 16 && isRecord(node) && typeof node.$ref === "string"; step++) {
    const ref = node.$ref;
    if (!ref.startsWith("#")) {
      const next = bases.fileOf(new URL(ref, bases.register(at, documents.get(at))), at);
      if (next === undefined) return undefined;
      at = next;
    }
    if (!documents.has(at)) documents.set(at, await read(at).then(parse, () => undefined));
    node = resolvePointer(documents.get(at), `#${ref.includes("#") ? ref.slice(ref.indexOf("#") + 1) : ""}`);
  }
  return isRecord(node) ? node : undefined;
}
