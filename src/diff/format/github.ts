import type { Change, DiffReport } from "../report/types.js";
import { showBeforeAfter } from "./values.js";

const COMMANDS = { breaking: "error", warning: "warning", info: "notice" } as const;

/**
 * GitHub Actions workflow commands: one annotation per change (errors for breaking changes,
 * warnings, notices for the rest and for accepted ones) on the file, line and column of the new
 * document, then a notice with the advice.
 */
export function formatGithub(report: DiffReport): string {
  const lines = report.changes.map(annotate);
  lines.push(
    `::notice title=${escapeProperty("spec:diff")}::${escapeData(`semver advice: ${report.semver} (${report.changes.length} change(s))`)}`,
  );
  return `${lines.join("\n")}\n`;
}

function annotate(change: Change): string {
  const command = change.accepted !== undefined ? "notice" : COMMANDS[change.severity];
  const properties = [
    ...(change.location !== undefined
      ? [
          `file=${escapeProperty(repositoryPath(change.location.file))}`,
          `line=${change.location.line}`,
          `col=${change.location.column}`,
        ]
      : []),
    `title=${escapeProperty(change.rule)}`,
  ];
  const beforeAfter = showBeforeAfter(change);
  const accepted = change.accepted !== undefined ? ` (accepted: ${change.accepted.reason})` : "";
  return `::${command} ${properties.join(",")}::${escapeData(`${change.message}${beforeAfter === "" ? "" : ` [${beforeAfter}]`}${accepted}`)}`;
}

/** "git:HEAD:spec/openapi.yaml" → "spec/openapi.yaml": annotations name files of the checkout. */
function repositoryPath(file: string): string {
  const match = /^git:[^:]*:(.*)$/.exec(file);
  return match?.[1] ?? file;
}

function escapeData(text: string): string {
  return text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
}
