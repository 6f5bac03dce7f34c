/**
 * A release's section of CHANGELOG.md, written from spec:diff's report between the contract last
 * published and the one released: one sentence per change (folded across the operations it
 * reaches), naming the operations, the side of the call it concerns, and the type, property or
 * parameter, grouped as a consumer reads them: what breaks their code or calls, what was added,
 * what changed that they should review, what was corrected.
 */
import { showBeforeAfter, showValue } from "../diff/format/values.js";
import { bumpOf } from "../diff/report/report.js";
import type { Change, ChangeDirection, DiffReport } from "../diff/report/types.js";

/** The changelog's groups, in the order they are printed. */
export const CHANGELOG_GROUPS = ["Breaking changes", "Added", "Changed", "Fixed"] as const;

/** One group's title. */
export type ChangelogGroup = (typeof CHANGELOG_GROUPS)[number];

/** What a release's section says beside the report. */
export interface SectionInput {
  readonly version: string;
  /** the version compared with; absent for the first release */
  readonly previous?: string;
  /** the release's day, YYYY-MM-DD */
  readonly date: string;
  /** the report between the published contract and this one (absent for the first release) */
  readonly report?: DiffReport;
  /** for the first release: the contract's title, version and operations */
  readonly contract: { readonly title: string; readonly version: string; readonly operations: readonly string[] };
}

const FILE_TITLE = "# Changelog";
const FILE_INTRO =
  "Each version of the package, written by `npm run release` from the changes of the contract since the version published before it.";

/** The Markdown section of one release. */
export function changelogSection(input: SectionInput): string {
  const heading = `## ${input.version} (${input.date})`;
  if (input.previous === undefined || input.report === undefined) return `${heading}\n\n${firstRelease(input)}\n`;
  const groups = groupChanges(input.report.changes);
  const body = CHANGELOG_GROUPS.filter((group) => groups.get(group) !== undefined).map(
    (group) => `### ${group}\n\n${(groups.get(group) ?? []).join("\n")}`,
  );
  const summary = `Compared with ${input.previous}, the version published before it: ${countLine(groups)}.`;
  const nothing = "The contract did not change: the package's code did.";
  return `${[heading, summary, ...(body.length > 0 ? body : [nothing])].join("\n\n")}\n`;
}

/** The changelog with `section` on top of the sections already there (a new file when there is none). */
export function addSection(changelog: string | undefined, section: string): string {
  const text = changelog ?? `${FILE_TITLE}\n\n${FILE_INTRO}\n`;
  const first = text.search(/^## /m);
  if (first === -1) return `${text.trimEnd()}\n\n${section}`;
  return `${text.slice(0, first)}${section}\n${text.slice(first)}`;
}

/** The sentences of each group, for the report's changes that concern the package's consumers. */
export function groupChanges(changes: readonly Change[]): Map<ChangelogGroup, string[]> {
  const folded = new Map<string, { change: Change; operations: string[] }>();
  for (const change of changes.filter((c) => bumpOf(c) !== "none")) {
    const key = [change.rule, change.pointer, change.message, showBeforeAfter(change)].join("\0");
    const line = folded.get(key) ?? { change, operations: [] };
    if (change.operation !== undefined && !line.operations.includes(change.operation))
      line.operations.push(change.operation);
    folded.set(key, line);
  }
  const groups = new Map<ChangelogGroup, string[]>();
  for (const { change, operations } of folded.values()) {
    const group = groupOf(change);
    groups.set(group, [...(groups.get(group) ?? []), sentence(change, operations)]);
  }
  return groups;
}

/** The group a change goes in: by what it asks of consumers, as its bump says. */
function groupOf(change: Change): ChangelogGroup {
  if (change.severity === "breaking") return "Breaking changes";
  const bump = bumpOf(change);
  if (bump === "patch") return "Fixed";
  return change.severity === "warning" ? "Changed" : "Added";
}

/** Where a change bites, in a consumer's words. */
const SIDES: Readonly<Record<ChangeDirection, string>> = {
  request: "what a call sends",
  response: "what a call receives",
  operation: "",
  package: "the package's TypeScript",
};

/**
 * One change as a sentence: the operations it reaches, the side of the call, what changed (the
 * report's words, with its before and after when the change has both) and, for an accepted
 * breaking change, why it was accepted.
 */
export function sentence(change: Change, found: readonly string[]): string {
  const { operations, more, message } = subjectOf(change.message, found);
  const what = readable(message);
  const [only] = operations;
  // a message that starts with its one operation's name ("listWageRules (GET /wage-rules): removed") names it itself
  const named = operations.length === 1 && more === "" && only !== undefined && what.startsWith(`${only} `);
  const side = SIDES[change.direction];
  const where = named ? "" : `${operations.map((operation) => `\`${operation}\``).join(", ")}${more}`;
  const subject = [where, side === "" ? "" : `(${side})`].filter((part) => part !== "").join(" ");
  const text = named ? `\`${only}\`${what.slice(only.length)}` : what;
  const values =
    change.before !== undefined && change.after !== undefined
      ? ` (\`${showValue(change.before).replace(/`/g, "'")}\` → \`${showValue(change.after).replace(/`/g, "'")}\`)`
      : "";
  const accepted = change.accepted === undefined ? "" : ` Accepted: ${change.accepted.reason}`;
  return `- ${subject === "" ? "" : `${subject}: `}${text}${values}.${accepted}`;
}

/**
 * The operations a change concerns and its message without them: the report names them beside
 * the change, or in its message, as the operation of a package export ("operation getVenue: ...")
 * or as those a component's change reaches ("... (reached from 2 operations: createVenue, getVenue)").
 */
function subjectOf(message: string, found: readonly string[]): { operations: string[]; more: string; message: string } {
  const labelled = /^operation (\S+): /.exec(message);
  if (labelled?.[1] !== undefined && (found.length === 0 || found.includes(labelled[1])))
    return {
      operations: found.length === 0 ? [labelled[1]] : [...found],
      more: "",
      message: message.slice(labelled[0].length),
    };
  const reached = / \(reached from \d+ operations: ([^)]*?)( and \d+ more)?\)$/.exec(message);
  if (reached?.[1] !== undefined && found.length === 0)
    return { operations: reached[1].split(", "), more: reached[2] ?? "", message: message.slice(0, reached.index) };
  return { operations: [...found], more: "", message };
}

/** The report's "subject: verb" made a sentence: "property `city`: became required" → "property `city` became required". */
function readable(message: string): string {
  return message
    .replace(/: became /g, " became ")
    .replace(/: added\b/g, " was added")
    .replace(/: removed\b/g, " was removed")
    .replace(/: renamed to /g, " was renamed to ")
    .replace(/[.;:\s]+$/, "");
}

function countLine(groups: ReadonlyMap<ChangelogGroup, readonly string[]>): string {
  const count = (group: ChangelogGroup): number => groups.get(group)?.length ?? 0;
  const parts = [
    [count("Breaking changes"), "breaking"],
    [count("Added"), "added"],
    [count("Changed"), "changed"],
    [count("Fixed"), "fixed"],
  ] as const;
  const said = parts.filter(([n]) => n > 0).map(([n, what]) => `${n} ${what}`);
  return said.length === 0 ? "no change to the contract" : said.join(", ");
}

function firstRelease(input: SectionInput): string {
  const { title, version, operations } = input.contract;
  return `First release, from the contract ${title} ${version}: ${operations.length} operations (${operations.map((id) => `\`${id}\``).join(", ")}).`;
}
