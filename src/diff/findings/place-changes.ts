import { scanPositions } from "../../load/position-scan.js";
import { findPositions, type Position } from "../../load/positions.js";
import { rules } from "../report/rules.js";
import type { Change } from "../report/types.js";
import type { SpecSide } from "../source/load-side.js";
import type { Finding } from "./finding.js";

/**
 * Findings made into changes, each placed in the new document (`file:line:col`): at its pointer,
 * or where it shows in the new document (a removed property shows at its object; a removed
 * operation at the nearest place that is still there).
 */
export function placeChanges(findings: readonly Finding[], head: SpecSide): Change[] {
  const targets = findings.map((finding) => finding.at ?? finding.pointer);
  const positions = positionsOf(head.text, [...new Set(targets)]);
  return findings.map((finding, index) => toChange(finding, head.name, positions[targets[index] ?? ""]));
}

function positionsOf(text: string, pointers: string[]): Record<string, Position> {
  const scanned = scanSafely(text, pointers);
  const missing = pointers.filter((pointer) => scanned[pointer] === undefined);
  return missing.length === 0 ? scanned : { ...scanned, ...findPositions(text, missing) };
}

function scanSafely(text: string, pointers: string[]): Record<string, Position> {
  try {
    return scanPositions(text, pointers);
  } catch {
    return {};
  }
}

function toChange(finding: Finding, file: string, position: Position | undefined): Change {
  const entry = rules[finding.rule];
  return {
    rule: finding.rule,
    severity: entry.severity,
    direction: finding.direction ?? entry.direction,
    ...(finding.operation !== undefined ? { operation: finding.operation } : {}),
    pointer: finding.pointer,
    ...(position !== undefined ? { location: { file, line: position.line, column: position.column } } : {}),
    ...(finding.before !== undefined ? { before: finding.before } : {}),
    ...(finding.after !== undefined ? { after: finding.after } : {}),
    message: finding.message,
  };
}
