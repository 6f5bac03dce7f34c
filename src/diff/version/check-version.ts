import { isAtLeast } from "../report/report.js";
import type { SemverBump } from "../report/types.js";

/** A version as major, minor and patch numbers. */
export type Version = readonly [number, number, number];

/** "1.2.3" (a pre-release or build suffix is ignored); with `loose`, "1.12" too. Undefined otherwise (a date, "v2-beta"). */
export function parseVersion(text: unknown, loose = false): Version | undefined {
  if (typeof text !== "string") return undefined;
  const match = (loose ? /^v?(\d+)\.(\d+)(?:\.(\d+))?(?:[-+].*)?$/ : /^v?(\d+)\.(\d+)\.(\d+)(?:[-+].*)?$/).exec(
    text.trim(),
  );
  if (match === null) return undefined;
  return [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)];
}

/**
 * The bump a version needs for changes that need `advice`, read as npm reads ranges: below
 * 1.0.0 the first non-zero number is the breaking one (^0.1.0 accepts 0.1.x only), so a
 * breaking change bumps 0.1.0 to 0.2.0 and an addition needs only a patch.
 */
export function requiredBump(advice: SemverBump, version: Version): SemverBump {
  if (advice === "none" || advice === "patch") return advice;
  const [major, minor] = version;
  if (major > 0) return advice;
  if (advice === "major") return minor > 0 ? "minor" : "patch";
  return "patch";
}

/** The bump from one version to another; "lower" when the new one is smaller. */
export function bumpBetween(before: Version, after: Version): SemverBump | "lower" {
  for (const [index, bump] of (["major", "minor", "patch"] as const).entries()) {
    if ((after[index] ?? 0) > (before[index] ?? 0)) return bump;
    if ((after[index] ?? 0) < (before[index] ?? 0)) return "lower";
  }
  return "none";
}

/** The verdict on one version: whether its bump is enough, and a line that says so (with the versions as `shown`). */
export function judgeBump(
  what: string,
  before: Version,
  after: Version,
  advice: SemverBump,
  shown?: readonly [string, string],
): { ok: boolean; line: string } {
  const required = requiredBump(advice, before);
  const bump = bumpBetween(before, after);
  const ok = bump !== "lower" && isAtLeast(bump, required);
  const [from, to] = shown ?? [before.join("."), after.join(".")];
  const verdict = ok ? "enough" : `not enough: the changes need ${required === "none" ? "no" : `a ${required}`} bump`;
  return {
    ok,
    line: `${ok ? "ok" : "error"}: ${what} ${from} → ${to} (${bump === "lower" ? "lowered" : `${bump} bump`}), ${verdict} (advice: ${advice})`,
  };
}
