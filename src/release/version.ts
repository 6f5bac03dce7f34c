/**
 * The version a release takes: the one published, bumped as spec:diff advises for the changes
 * since (read as npm reads ranges: below 1.0.0 a breaking change needs a new minor version), or
 * a higher one asked for with `--version`. A lower one is refused, with the changes that need more.
 */
import { bumpOf, isAtLeast } from "../diff/report/report.js";
import type { DiffReport, SemverBump } from "../diff/report/types.js";
import { bumpBetween, parseVersion, requiredBump, type Version } from "../diff/version/check-version.js";
import { releaseFailure } from "./failures.js";

/** The version chosen, and why, in a line for the plan. */
export interface ChosenVersion {
  readonly version: string;
  readonly reason: string;
}

/** What the choice is made from. */
export interface VersionInput {
  /** the registry's latest version; absent when nothing is published yet */
  readonly published?: string;
  /** the report since the published version (absent for the first release) */
  readonly report?: DiffReport;
  /** `--version`, when given */
  readonly requested?: string;
  /** package.json's version: the first release's, unless `--version` says another */
  readonly current: string;
}

/** Chooses the release's version; throws a RELEASE_VERSION failure saying why one cannot be. */
export function chooseVersion(input: VersionInput): ChosenVersion {
  const requested = input.requested === undefined ? undefined : plainVersion(input.requested, "--version");
  if (input.published === undefined || input.report === undefined) {
    const version = requested ?? plainVersion(input.current, "package.json's version");
    const from = requested === undefined ? "package.json's version" : "--version";
    return { version: show(version), reason: `first release: nothing is published yet, so ${from} is taken` };
  }
  const published = plainVersion(input.published, "the registry's latest version");
  const advice = input.report.semver;
  const needed = requiredBump(advice, published);
  const advised = needed === "none" ? undefined : bumped(published, needed);
  if (requested === undefined) {
    if (advised === undefined) throw nothingToRelease(input.published);
    return { version: show(advised), reason: `${input.published} with a ${needed} bump: ${why(advice, input.report)}` };
  }
  const bump = bumpBetween(published, requested);
  if (bump === "lower" || bump === "none")
    throw releaseFailure(
      "RELEASE_VERSION",
      `--version ${show(requested)} is not above ${input.published}, the registry's latest version: a version is published once`,
    );
  if (!isAtLeast(bump, needed))
    throw releaseFailure(
      "RELEASE_VERSION",
      `--version ${show(requested)} is lower than ${show(advised ?? published)}, which the changes since ${input.published} need (a ${needed} bump): ${why(advice, input.report)}`,
    );
  return { version: show(requested), reason: `--version, at least the ${needed} bump the changes need` };
}

/** The version one bump above `version`. */
export function bumped(version: Version, bump: Exclude<SemverBump, "none">): Version {
  const [major, minor, patch] = version;
  if (bump === "major") return [major + 1, 0, 0];
  return bump === "minor" ? [major, minor + 1, 0] : [major, minor, patch + 1];
}

/** Why the changes need their bump, in a few words: how many need it, and the first of them. */
function why(advice: SemverBump, report: DiffReport): string {
  const deciding = report.changes.filter((change) => bumpOf(change) === advice);
  const named = deciding.slice(0, 3).map((change) => {
    const operation = change.operation ?? "the document";
    return change.message.startsWith(`${operation} `) ? change.message : `${operation}: ${change.message}`;
  });
  const more = deciding.length > named.length ? `, and ${deciding.length - named.length} more` : "";
  return `${deciding.length} ${KINDS[advice]} (${named.join("; ")}${more})`;
}

const KINDS: Readonly<Record<SemverBump, string>> = {
  major: "breaking change(s)",
  minor: "addition(s) or change(s) to review",
  patch: "change(s) to the documentation",
  none: "change(s)",
};

function nothingToRelease(published: string): Error {
  return releaseFailure(
    "RELEASE_NOTHING",
    `the contract has not changed since ${published}, the registry's latest version: spec:diff finds no change to release`,
  );
}

/** A plain X.Y.Z version; a pre-release, a range or anything else is refused, naming where it came from. */
function plainVersion(text: string, from: string): Version {
  const parsed = /^\d+\.\d+\.\d+$/.test(text.trim()) ? parseVersion(text) : undefined;
  if (parsed === undefined)
    throw releaseFailure("RELEASE_VERSION", `${from} ${JSON.stringify(text)} is not a version of the form 1.2.3`);
  return parsed;
}

function show(version: Version): string {
  return version.join(".");
}
