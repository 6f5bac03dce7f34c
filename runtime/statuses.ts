/**
 * HTTP statuses as types, the same for every spec: the statuses a declared response key stands
 * for ("200", "4XX", "default"), used by the handlers' answers and the client's typed errors.
 */

type Digit = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;
type StatusClass = 1 | 2 | 3 | 4 | 5;
type ToNumber<S> = S extends `${infer N extends number}` ? N : never;

/** Every status of a class: `StatusRange<4>` is 400 | 401 | ... | 499. */
export type StatusRange<C extends StatusClass> = ToNumber<`${C}${Digit}${Digit}`>;

/** The response keys of a responses object `R`. */
export type Declared<R> = keyof R & string;
type ExactStatus<K> = K extends `${infer N extends number}` ? N : never;
type RangeClass<K> = K extends `${infer C extends StatusClass}XX` ? C : never;

/** The statuses a declared response key stands for: "200" → 200, "4XX" and "default" → the rest. */
export type StatusOf<K extends string, R> = K extends `${infer N extends number}`
  ? N
  : K extends `${infer C extends StatusClass}XX`
    ? Exclude<StatusRange<C>, ExactStatus<Declared<R>>>
    : K extends "default"
      ? Exclude<StatusRange<StatusClass>, ExactStatus<Declared<R>> | StatusRange<RangeClass<Declared<R>>>>
      : never;

/** Whether a declared response key covers a status: exactly, by its class ("4XX"), or as "default". */
export function declaredKeyOf(keys: readonly string[], status: number): string | undefined {
  const exact = String(status);
  if (keys.includes(exact)) return exact;
  const range = `${Math.trunc(status / 100)}XX`;
  if (keys.includes(range)) return range;
  return keys.includes("default") ? "default" : undefined;
}
