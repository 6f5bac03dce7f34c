import { readFile } from "node:fs/promises";
import { isMap, isSeq, LineCounter, type Node, parseDocument } from "yaml";
import { createDiagnostic, type Diagnostic, GenerationFailed } from "../../diagnostics/diagnostic.js";
import { rules } from "./rules.js";
import type { Change } from "./types.js";

/** The file where breaking changes are accepted on purpose. */
export const DEFAULT_ACCEPTED_FILE = "spec/accepted-changes.yaml";

/** One entry of the accepted-changes file: which change, and why it is accepted. */
export interface AcceptedEntry {
  readonly rule: string;
  /** an operationId, or "METHOD /path" */
  readonly operation?: string;
  /** the change's pointer, as the report prints it */
  readonly pointer?: string;
  readonly reason: string;
  readonly line: number;
  readonly column: number;
}

/**
 * Reads the accepted-changes file (a YAML list); a missing file accepts nothing. Throws
 * GenerationFailed (ACCEPTED_CHANGES_INVALID, with line and column) when it cannot be read as one.
 */
export async function readAcceptedChanges(path: string): Promise<AcceptedEntry[]> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw new GenerationFailed([invalid(path, `cannot be read (${(error as Error).message})`)]);
  }
  return parseAcceptedChanges(text, path);
}

/** The entries of the file's text; `path` names it in diagnostics. */
export function parseAcceptedChanges(text: string, path: string): AcceptedEntry[] {
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines });
  const at = (node: unknown): Place => placeOf(lines, node as Node);
  if (document.errors.length > 0)
    throw new GenerationFailed(
      document.errors.map((e) =>
        invalid(path, e.message.split("\n")[0] ?? e.message, { line: e.linePos?.[0].line, column: e.linePos?.[0].col }),
      ),
    );
  const root = document.contents;
  if (root === null || (isSeq(root) && root.items.length === 0)) return [];
  if (!isSeq(root)) throw new GenerationFailed([invalid(path, "must be a list of entries", at(root))]);
  const read = root.items.map((item) => ({ item, entry: readEntry(item as Node, at(item)) }));
  const problems = read.flatMap(({ item, entry }) =>
    typeof entry === "string" ? [invalid(path, entry, at(item))] : [],
  );
  if (problems.length > 0) throw new GenerationFailed(problems);
  return read.flatMap(({ entry }) => (typeof entry === "string" ? [] : [entry]));
}

/** A line and column, when known. */
interface Place {
  readonly line?: number | undefined;
  readonly column?: number | undefined;
}

function placeOf(lines: LineCounter, node: Node | null | undefined): Place {
  const start = node?.range?.[0];
  if (start === undefined) return {};
  const { line, col } = lines.linePos(start);
  return { line, column: col };
}

function readEntry(item: Node, place: Place): AcceptedEntry | string {
  if (!isMap(item)) return "each entry must be a mapping with rule, operation or pointer, and reason";
  const value = item.toJSON() as Record<string, unknown>;
  const text = (key: string): string | undefined =>
    typeof value[key] === "string" && value[key] !== "" ? value[key] : undefined;
  const [rule, operation, pointer, reason] = [text("rule"), text("operation"), text("pointer"), text("reason")];
  if (rule === undefined || !(rule in rules))
    return `entry has ${rule === undefined ? "no rule" : `an unknown rule "${rule}"`}`;
  if (operation === undefined && pointer === undefined)
    return `entry for ${rule} names neither an operation nor a pointer`;
  if (reason === undefined) return `entry for ${rule} gives no reason`;
  return {
    rule,
    ...(operation !== undefined ? { operation } : {}),
    ...(pointer !== undefined ? { pointer } : {}),
    reason,
    line: place.line ?? 1,
    column: place.column ?? 1,
  };
}

function invalid(file: string, message: string, place: Place = {}): Diagnostic {
  return createDiagnostic("ACCEPTED_CHANGES_INVALID", message, {
    file,
    pointer: "",
    ...(place.line !== undefined ? { line: place.line } : {}),
    ...(place.column !== undefined ? { column: place.column } : {}),
  });
}

/**
 * Marks the changes an entry covers as accepted (the rule matches, and the operation and
 * pointer where the entry gives them), and adds a warning for each entry that covers nothing,
 * so the file does not keep entries for changes long gone. `aliases` gives the names an
 * operation goes by: its operationId and "METHOD /path".
 */
export function applyAccepted(
  changes: readonly Change[],
  entries: readonly AcceptedEntry[],
  file: string,
  aliases: (operation: string) => readonly string[],
): Change[] {
  const used = new Set<AcceptedEntry>();
  const marked = changes.map((change) => {
    const entry = entries.find((candidate) => covers(candidate, change, aliases));
    if (entry === undefined) return change;
    used.add(entry);
    return { ...change, accepted: { reason: entry.reason } };
  });
  return [...marked, ...entries.filter((entry) => !used.has(entry)).map((entry) => staleChange(entry, file))];
}

function covers(entry: AcceptedEntry, change: Change, aliases: (operation: string) => readonly string[]): boolean {
  if (entry.rule !== change.rule) return false;
  if (entry.pointer !== undefined && entry.pointer !== change.pointer) return false;
  return (
    entry.operation === undefined ||
    (change.operation !== undefined && aliases(change.operation).includes(entry.operation))
  );
}

function staleChange(entry: AcceptedEntry, file: string): Change {
  const where = [entry.operation, entry.pointer].filter((part) => part !== undefined).join(" ");
  return {
    rule: "accepted-change-stale",
    severity: rules["accepted-change-stale"].severity,
    direction: "operation",
    pointer: "",
    location: { file, line: entry.line, column: entry.column },
    before: {
      rule: entry.rule,
      ...(entry.operation !== undefined ? { operation: entry.operation } : {}),
      ...(entry.pointer !== undefined ? { pointer: entry.pointer } : {}),
    },
    message: `the accepted change ${entry.rule} at ${where} matches no change any more: remove the entry`,
  };
}
