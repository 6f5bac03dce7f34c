/** The types of ./spec-drift.mjs (plain JavaScript, which `npm start` runs without a compiler), for its test. */

/** The warning to print when `root`'s spec/openapi.yaml differs from its generated/openapi.json; undefined when they agree or either is not there. */
export function specDrift(root: string): string | undefined;
