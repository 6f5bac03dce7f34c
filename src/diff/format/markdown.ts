import type { Change, DiffReport, SemverBump } from "../report/types.js";
import { showBeforeAfter, showLocation } from "./values.js";

/** Changes that differ only in the operation they were found through, shown as one line. */
interface Line {
  readonly change: Change;
  readonly operations: string[];
}

const ADVICE: Readonly<Record<SemverBump, string>> = {
  major: "release a new major version of the package (below 1.0.0: a new minor version)",
  minor: "release a new minor version of the package (below 1.0.0: a patch version is enough)",
  patch: "documentation only: a patch release",
  none: "the documents are equivalent: nothing to release",
};

/**
 * The report as a pull-request comment: the verdict with the advised bump, then the breaking
 * changes (repeats across operations folded into one line), the accepted ones with their
 * reasons, and the rest grouped by operation. Each line has its rule, place and before → after.
 */
export function formatMarkdown(report: DiffReport): string {
  const open = report.changes.filter((c) => c.accepted === undefined);
  const sections = [
    section(
      "Breaking changes",
      open.filter((c) => c.severity === "breaking"),
    ),
    section(
      "Accepted breaking changes",
      report.changes.filter((c) => c.accepted !== undefined),
    ),
    ...groupByOperation(open.filter((c) => c.severity !== "breaking")).map(([operation, changes]) =>
      section(`Other changes: ${operation}`, changes),
    ),
  ];
  return `${[verdict(report), ...sections.filter((s) => s !== "")].join("\n\n")}\n`;
}

function verdict(report: DiffReport): string {
  const count = (filter: (c: Change) => boolean): number => report.changes.filter(filter).length;
  const breaking = count((c) => c.severity === "breaking" && c.accepted === undefined);
  const parts = [
    `${breaking} breaking`,
    `${count((c) => c.severity === "warning")} warning(s)`,
    `${count((c) => c.severity === "info")} info`,
    ...(count((c) => c.accepted !== undefined) > 0 ? [`${count((c) => c.accepted !== undefined)} accepted`] : []),
    ...(count((c) => c.rule === "unclassified") > 0
      ? [`${count((c) => c.rule === "unclassified")} unclassified, to review by hand`]
      : []),
  ];
  return `### spec:diff: **${report.semver}**: ${ADVICE[report.semver]}\n\n${parts.join(" · ")}${breaking > 0 ? `. Breaks ${audience(report.changes)}.` : "."}`;
}

/** Who the unaccepted breaking changes break. */
function audience(changes: readonly Change[]): string {
  const breaking = changes.filter((c) => c.severity === "breaking" && c.accepted === undefined);
  const http = breaking.some((c) => c.direction !== "package");
  const code = breaking.some((c) => c.direction === "package");
  return [
    ...(http ? ["HTTP clients"] : []),
    ...(code ? ["code built on the generated package (client callers, server handlers, importers)"] : []),
  ].join(" and ");
}

function section(title: string, changes: readonly Change[]): string {
  if (changes.length === 0) return "";
  return [`#### ${title}`, "", ...foldRepeats(changes).map(showLine)].join("\n");
}

function foldRepeats(changes: readonly Change[]): Line[] {
  const lines = new Map<string, Line>();
  for (const change of changes) {
    const key = `${change.rule} ${change.pointer} ${showBeforeAfter(change)} ${change.accepted?.reason ?? ""}`;
    const line = lines.get(key) ?? { change, operations: [] };
    if (change.operation !== undefined && !line.operations.includes(change.operation))
      line.operations.push(change.operation);
    lines.set(key, line);
  }
  return [...lines.values()];
}

function showLine({ change, operations }: Line): string {
  const where = [
    showLocation(change.location),
    operations.length > 0 ? operations.map((o) => `\`${o}\``).join(", ") : "",
  ]
    .filter((part) => part !== "")
    .join(" · ");
  const beforeAfter = showBeforeAfter(change);
  const severity = change.severity === "breaking" ? "" : `${change.severity} `;
  const accepted = change.accepted === undefined ? "" : ` Accepted: ${change.accepted.reason}`;
  return `- ${severity}\`${change.rule}\` ${where === "" ? "" : `(${where}) `}${change.message}${beforeAfter === "" ? "" : ` — \`${beforeAfter.replace(/`/g, "'")}\``}${accepted}`;
}

function groupByOperation(changes: readonly Change[]): [string, Change[]][] {
  const groups = new Map<string, Change[]>();
  for (const change of changes) {
    const key = change.operation ?? "shared components and the document";
    groups.set(key, [...(groups.get(key) ?? []), change]);
  }
  return [...groups].sort(([a], [b]) =>
    a === "shared components and the document"
      ? -1
      : b === "shared components and the document"
        ? 1
        : a.localeCompare(b),
  );
}
