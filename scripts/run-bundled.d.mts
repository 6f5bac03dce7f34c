/** The types of ./run-bundled.mjs (plain JavaScript, which `npm start` runs without a compiler), for its test. */

/** How many bundles the cache keeps: those of the entries run last. */
export const KEPT_BUNDLES: number;

/** The bundle of `entry` (a path from the repository's root, or absolute), made again when one of `sources` changed since it was. */
export function bundleOf(entry: string, sources: readonly string[]): Promise<string>;

/** Runs the bundle in this process, with `args` as its command line. */
export function runBundle(bundle: string, args: readonly string[]): Promise<void>;

/** Removes from the cache `folder` the bundles of all but the `kept` entries used last, and old partial bundles; only this user's regular files. */
export function pruneBundles(folder: string, kept: number): void;
