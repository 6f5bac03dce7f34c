import type { Diagnostic, SourceLocation } from "../diagnostics/diagnostic.js";
import { runWorkerTask } from "../worker-task.js";
import { scanPositions } from "./position-scan.js";
import { findPositions, type Position } from "./positions.js";

/** The location of a JSON pointer in the spec file (line and column are added later). */
export type Locate = (pointer: string) => SourceLocation;

/** Adds line and column to every diagnostic that points into the spec without them. */
export type ResolvePositions = (diagnostics: readonly Diagnostic[]) => Promise<Diagnostic[]>;

/** Above this size, the text is parsed for positions in a worker thread, beside the generation. */
const WORKER_THRESHOLD = 512 * 1024;

/**
 * Locating a pointer is cheap; finding its line and column needs the text parsed with source
 * ranges, which for a large document costs more than the whole fast parse. So it is done once,
 * for all diagnostics together, and only when there are any.
 */
export function createLocator(file: string, text: string): { locate: Locate; resolvePositions: ResolvePositions } {
  const locate: Locate = (pointer) => ({ file, pointer });
  const resolvePositions: ResolvePositions = async (diagnostics) => {
    const pointers = [...new Set(diagnostics.filter(needsPosition).map((d) => d.location?.pointer as string))];
    if (pointers.length === 0) return [...diagnostics];
    const positions = await lookUp(text, pointers);
    return diagnostics.map((d) =>
      needsPosition(d) ? withPosition(d, file, positions[d.location?.pointer as string]) : d,
    );
  };
  return { locate, resolvePositions };
}

/** A diagnostic with a pointer but no line points into the spec (emitters know only pointers). */
function needsPosition(diagnostic: Diagnostic): boolean {
  const location = diagnostic.location;
  return location !== undefined && location.line === undefined && location.pointer !== "";
}

function withPosition(diagnostic: Diagnostic, file: string, position: Position | undefined): Diagnostic {
  if (diagnostic.location === undefined) return diagnostic;
  const place = position === undefined ? {} : { line: position.line, column: position.column };
  return { ...diagnostic, location: { ...diagnostic.location, file, ...place } };
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
