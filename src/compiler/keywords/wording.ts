/**
 * The wording every keyword's message shares. Each keyword's message is written beside its
 * compilation, in the file of its family, at generation time, so that reporting a failure costs
 * no string building. With the instance path in front (added when the validator reports) it reads
 * as a sentence: "/name must be at most 150 characters"; at the root the path is left out ("must
 * have required property 'city'").
 */

/** "1 item", "3 items". */
export function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Up to ten JSON values, then how many there are. */
export function listValues(values: readonly unknown[]): string {
  const shown = values
    .slice(0, 10)
    .map((value) => JSON.stringify(value))
    .join(", ");
  return values.length > 10 ? `${shown}, ... (${values.length} values)` : shown;
}

/** The message of `format`, which strings and numbers share. */
export function formatMessage(format: string): string {
  return `must match format ${JSON.stringify(format)}`;
}
