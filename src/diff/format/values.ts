import type { Change, ChangeLocation } from "../report/types.js";

const LIMIT = 80;

/** A before/after value as one short line: strings bare, lists of plain values joined, the rest as JSON, long ones cut. */
export function showValue(value: unknown): string {
  const plain = (item: unknown): boolean => item === null || typeof item !== "object";
  const list =
    Array.isArray(value) && value.every(plain)
      ? value.map((item) => (typeof item === "string" ? item : JSON.stringify(item))).join(", ")
      : undefined;
  const text = list ?? (typeof value === "string" ? value : (JSON.stringify(value) ?? String(value)));
  const line = text.replace(/\s+/g, " ");
  return line.length > LIMIT ? `${line.slice(0, LIMIT - 1)}…` : line;
}

/** "old → new", "→ new", "old →", or "" when the change carries neither. */
export function showBeforeAfter(change: Change): string {
  if (change.before === undefined && change.after === undefined) return "";
  const before = change.before === undefined ? "" : showValue(change.before);
  const after = change.after === undefined ? "" : showValue(change.after);
  return `${before} → ${after}`.trim();
}

/** "spec/openapi.yaml:42:7". */
export function showLocation(location: ChangeLocation | undefined): string {
  return location === undefined ? "" : `${location.file}:${location.line}:${location.column}`;
}
