import type { Diagnostic, SourceLocation } from "../diagnostics/diagnostic.js";
import { runWorkerTask } from "../worker-task.js";
import type { Origin, Origins } from "./origins.js";
import { scanPositions } from "./position-scan.js";
import { findPositions, type Position } from "./positions.js";

/** The location of a JSON pointer in the spec file (line and column are added later). */
export type Locate = (pointer: string) => SourceLocation;

/** Adds line and column to every diagnostic that points into the spec without them. */
export type ResolvePositions = (diagnostics: readonly Diagnostic[]) => Promise<Diagnostic[]>;

/** Above this size, the text is parsed for positions in a worker thread, beside the generation. */
const WORKER_THRESHOLD = 512 * 1024;

/**
 * The other files of a document of several files: where each place of the bundled document was
 * written (origins.ts), and each file's text, to find lines and columns in.
 */
export interface OtherFiles {
  readonly origins: Origins;
  readonly texts: ReadonlyMap<string, string>;
}

/**
 * Locating a pointer is cheap; finding its line and column needs the text parsed with source
 * ranges, which for a large document costs more than the whole fast parse. So it is done once,
 * for all diagnostics together, and only when there are any. Pointers are the bundled document's;
 * with `others`, a place written in another file is placed in that file, at its pointer there.
 */
export function createLocator(
  file: string,
  text: string,
  others?: OtherFiles,
): { locate: Locate; resolvePositions: ResolvePositions } {
  const locate: Locate = (pointer) => ({ file, pointer });
  const originOf = (pointer: string): Origin => others?.origins.of(pointer) ?? { file, pointer };
  const textOf = (at: string): string => (at === file ? text : (others?.texts.get(at) ?? ""));
  const resolvePositions: ResolvePositions = async (diagnostics) => {
    const origins = new Map(
      diagnostics
        .filter(needsPosition)
        .map((d) => [d.location?.pointer as string, originOf(d.location?.pointer as string)]),
    );
    if (origins.size === 0) return [...diagnostics];
    const positions = await positionsByFile([...origins.values()], textOf);
    return diagnostics.map((d) => {
      const origin = needsPosition(d) ? origins.get(d.location?.pointer as string) : undefined;
      return origin === undefined ? d : withPosition(d, origin, positions.get(origin.file)?.[origin.pointer]);
    });
  };
  return { locate, resolvePositions };
}

/** The positions of places, looked up in each file's text once for all of its pointers. */
async function positionsByFile(
  places: readonly Origin[],
  textOf: (file: string) => string,
): Promise<Map<string, Record<string, Position>>> {
  const byFile = new Map<string, Set<string>>();
  for (const { file, pointer } of places) byFile.set(file, (byFile.get(file) ?? new Set()).add(pointer));
  const found = await Promise.all(
    [...byFile].map(async ([file, pointers]) => [file, await lookUp(textOf(file), [...pointers])] as const),
  );
  return new Map(found);
}

/** A diagnostic with a pointer but no line points into the spec (emitters know only pointers). */
function needsPosition(diagnostic: Diagnostic): boolean {
  const location = diagnostic.location;
  return location !== undefined && location.line === undefined && location.pointer !== "";
}

function withPosition(diagnostic: Diagnostic, origin: Origin, position: Position | undefined): Diagnostic {
  if (diagnostic.location === undefined) return diagnostic;
  const place = position === undefined ? {} : { line: position.line, column: position.column };
  return { ...diagnostic, location: { ...diagnostic.location, ...origin, ...place } };
}

/** A scan places most pointers at once; the full parse (in a worker, for a large text) the rest. */
async function lookUp(text: string, pointers: string[]): Promise<Record<string, Position>> {
  const scanned = scanSafely(text, pointers);
  const missing = pointers.filter((pointer) => scanned[pointer] === undefined);
  if (missing.length === 0) return scanned;
  const inThread = async (): Promise<Record<string, Position>> => findPositions(text, missing);
  const parsed =
    text.length < WORKER_THRESHOLD
      ? await inThread()
      : await runWorkerTask(import.meta.url, "positions-worker", { text, pointers: missing }, inThread);
  return { ...scanned, ...parsed };
}

function scanSafely(text: string, pointers: string[]): Record<string, Position> {
  try {
    return scanPositions(text, pointers);
  } catch {
    return {};
  }
}
