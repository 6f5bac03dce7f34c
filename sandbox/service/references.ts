/**
 * The references a body makes to records of the caller's company (a venue, a client, a credential
 * type, a wage rule), checked in one place for every operation: the store is asked once for the
 * records the references name, and each reference it finds none for is refused with the same
 * words, "names no venue of this company", whether the record is another company's or does not
 * exist (the two cannot be told apart).
 */
import type { Refusal } from "./refusals.js";

/** A field of the body that names a record: where it is, in the body and in the contract, and what it names. */
export interface ReferenceField {
  /** JSON pointer to the field in the body ("/venue/venue_id") */
  readonly instancePath: string;
  /** the schema of the field ("#/components/schemas/EventVenueInput/properties/venue_id") */
  readonly schemaPath: string;
  /** what the field names ("venue") */
  readonly resource: string;
}

/** A reference the body makes: the field, the text sent, and the key of the record it names. */
export interface Reference<K> extends ReferenceField {
  readonly value: string;
  /** undefined when the text can name no record (a venue ID that is no number) */
  readonly key: K | undefined;
}

/** The reference `field` makes with the text sent, `key` reading the record's key in it; none when nothing is sent. */
export function referenceOf<K>(
  field: ReferenceField,
  value: string | undefined,
  key: (text: string) => K | undefined,
): Reference<K>[] {
  return value === undefined ? [] : [{ ...field, value, key: key(value) }];
}

/** The key of a record named by its text as sent (a client's ID, a credential type's). */
export function asSent(text: string): string {
  return text;
}

/** What the store found of the keys it was given: the records (a Map) or the keys (a Set). */
export interface Found<K> {
  has(key: K): boolean;
}

/**
 * The records the references name, as the store's `lookup` finds them among the company's (asked
 * once, with the keys of all of them, and not at all when none has a key), and a refusal for each
 * reference that names none. `found` is undefined when the store was not asked.
 */
export async function checkReferences<K, F extends Found<K>>(
  references: readonly Reference<K>[],
  lookup: (keys: K[]) => Promise<F>,
): Promise<{ readonly found: F | undefined; readonly refusals: Refusal[] }> {
  const keys = references.flatMap((reference) => (reference.key === undefined ? [] : [reference.key]));
  const found = keys.length === 0 ? undefined : await lookup(keys);
  const refusals = references
    .filter((reference) => reference.key === undefined || found?.has(reference.key) !== true)
    .map(namesNothing);
  return { found, refusals };
}

/** A lookup that reads one record per key, in turn (`read` answers it, or undefined or false for none). */
export function oneByOne<K, R>(read: (key: K) => Promise<R | undefined | false>): (keys: K[]) => Promise<Map<K, R>> {
  return async (keys) => {
    const found = new Map<K, R>();
    for (const key of keys) {
      const record = await read(key);
      if (record !== undefined && record !== false) found.set(key, record);
    }
    return found;
  };
}

function namesNothing(reference: Reference<unknown>): Refusal {
  return {
    instancePath: reference.instancePath,
    schemaPath: reference.schemaPath,
    keyword: "reference",
    resource: reference.resource,
    value: reference.value,
    says: `names no ${reference.resource} of this company`,
  };
}
