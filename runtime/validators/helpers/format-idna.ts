/** Punycode decoding (RFC 3492) and the IDNA2008 rules for A-labels that can be checked with Unicode properties. */

function $punyDigit(c: number): number {
  if (c >= 48 && c <= 57) return c - 22;
  if (c >= 65 && c <= 90) return c - 65;
  if (c >= 97 && c <= 122) return c - 97;
  return 36;
}
function $punyAdapt(delta: number, points: number, first: boolean): number {
  let d = first ? Math.floor(delta / 700) : delta >> 1;
  d += Math.floor(d / points);
  let k = 0;
  for (; d > 455; k += 36) d = Math.floor(d / 35);
  return k + Math.floor((36 * d) / (d + 38));
}
export function $punyDecode(input: string): number[] | null {
  const out: number[] = [];
  const b = input.lastIndexOf("-");
  for (let j = 0; j < b; j++) out.push(input.charCodeAt(j));
  let n = 128;
  let i = 0;
  let bias = 72;
  for (let p = b < 0 ? 0 : b + 1; p < input.length; ) {
    const old = i;
    for (let w = 1, k = 36; ; k += 36) {
      if (p >= input.length) return null;
      const digit = $punyDigit(input.charCodeAt(p++));
      if (digit >= 36 || digit * w > 0x7fffffff - i) return null;
      i += digit * w;
      const t = k <= bias ? 1 : k >= bias + 26 ? 26 : k - bias;
      if (digit < t) break;
      w *= 36 - t;
    }
    bias = $punyAdapt(i - old, out.length + 1, old === 0);
    n += Math.floor(i / (out.length + 1));
    i %= out.length + 1;
    if (n > 0x10ffff || (n >= 0xd800 && n <= 0xdfff)) return null;
    out.splice(i++, 0, n);
  }
  return out;
}
const $IDNA_ALLOWED = /^[\p{Ll}\p{Lo}\p{Lm}\p{Mn}\p{Mc}\p{Nd}\u00B7\u0375\u05F3\u05F4\u06FD\u06FE\u0F0B\u3007\u30FB\u200C\u200D-]+$/u;
const $IDNA_DISALLOWED = /[\u0640\u07FA\u302E\u302F\u3031-\u3035\u303B]/u;
const $VIRAMA = /[\u094D\u09CD\u0A4D\u0ACD\u0B4D\u0BCD\u0C4D\u0CCD\u0D3B\u0D3C\u0D4D\u0DCA\u0E3A\u0EBA\u0F84\u1039\u103A\u1714\u1734\u17D2\u1A60\u1B44\u1BAA\u1BAB\u1BF2\u1BF3\u2D7F\uA806\uA8C4\uA953\uA9C0\uAAF6\uABED\u{10A3F}\u{11046}\u{1107F}\u{110B9}\u{11133}\u{11134}\u{111C0}\u{11235}\u{112EA}\u{1134D}\u{11442}\u{114C2}\u{115BF}\u{1163F}\u{116B6}\u{1172B}\u{11839}\u{119E0}\u{11A34}\u{11A47}\u{11A99}\u{11C3F}\u{11D44}\u{11D45}\u{11D97}]/u;
const $JOINING = /[\p{Script=Arabic}\p{Script=Syriac}\p{Script=Nko}\p{Script=Mongolian}\p{Script=Adlam}\p{Script=Mandaic}]/u;
function $idnaContext(cps: readonly number[], at: number): boolean {
  const c = cps[at] ?? 0;
  const before = at > 0 ? String.fromCodePoint(cps[at - 1] ?? 0) : "";
  const after = at + 1 < cps.length ? String.fromCodePoint(cps[at + 1] ?? 0) : "";
  switch (c) {
    case 0xb7: return before === "l" && after === "l";
    case 0x375: return /\p{Script=Greek}/u.test(after);
    case 0x5f3: case 0x5f4: return /\p{Script=Hebrew}/u.test(before);
    case 0x200d: return $VIRAMA.test(before);
    case 0x200c: return $VIRAMA.test(before) || ($JOINING.test(before) && $JOINING.test(after));
    case 0x30fb: return cps.some((x) => x !== 0x30fb && /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/u.test(String.fromCodePoint(x)));
    default: return true;
  }
}
export function $idnaLabel(encoded: string): boolean {
  const cps = $punyDecode(encoded);
  if (cps === null || cps.every((x) => x < 128)) return false;
  const label = String.fromCodePoint(...cps);
  if (!$IDNA_ALLOWED.test(label) || $IDNA_DISALLOWED.test(label) || /^\p{M}/u.test(label)) return false;
  if (label.startsWith("-") || label.endsWith("-") || label.slice(2, 4) === "--") return false;
  if (/[\u0660-\u0669]/u.test(label) && /[\u06F0-\u06F9]/u.test(label)) return false;
  for (let i = 0; i < cps.length; i++) if (!$idnaContext(cps, i)) return false;
  return true;
}
