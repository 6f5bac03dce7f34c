/** JSON with object keys sorted, so that equal values give equal text whatever their key order. */
export function stableStringify(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? "undefined";
}

const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The value with its objects' keys sorted. A plain object whose keys are already in order and
 * whose children need no change is kept as it is rather than copied (most of a digest's are).
 */
function sortKeys(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    const copy: unknown[] = new Array(value.length);
    for (let index = 0; index < value.length; index++) copy[index] = sortKeys(value[index]);
    return copy;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  const prototype: unknown = Object.getPrototypeOf(record);
  let changed = prototype !== Object.prototype && prototype !== null;
  for (let index = 1; index < keys.length && !changed; index++)
    changed = byCodeUnits(keys[index - 1] as string, keys[index] as string) > 0;
  const children = keys.map((key) => {
    const child = record[key];
    const sorted = sortKeys(child);
    if (sorted !== child) changed = true;
    return sorted;
  });
  if (!changed) return record;
  const order = keys.map((_, index) => index).sort((a, b) => byCodeUnits(keys[a] as string, keys[b] as string));
  return Object.fromEntries(order.map((index) => [keys[index], children[index]]));
}

/** Whether two JSON values are equal, key order aside. */
export function sameJson(a: unknown, b: unknown): boolean {
  return stableStringify(a) === stableStringify(b);
}
