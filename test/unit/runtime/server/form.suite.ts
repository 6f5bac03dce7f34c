import { describe, expect, it } from "vitest";
import { parseForm } from "../../../../runtime/server/runtime/form.js";

describe("parseForm", () => {
  it.each<[string, string, Record<string, unknown>]>([
    ["an empty form", "", {}],
    ["a plain field", "name=Ann", { name: "Ann" }],
    ["a field with no value", "flag", { flag: "" }],
    ["a field with no name", "=x", { "": "x" }],
    ["empty pairs", "&&a=1&&", { a: "1" }],
    ["a repeated name", "a=1&a=2&a=3", { a: ["1", "2", "3"] }],
    ["percent-encoded unicode and +", "n%C3%A4me=%E2%9C%93+ok", { näme: "✓ ok" }],
    ["malformed percent escapes, kept as they are", "a=%zz&b=%", { a: "%zz", b: "%" }],
    ["an object in brackets", "meta[plan]=pro&meta[seats]=3", { meta: { plan: "pro", seats: "3" } }],
    ["nested objects", "a[b][c]=1", { a: { b: { c: "1" } } }],
    ["an array with []", "tags[]=a&tags[]=b", { tags: ["a", "b"] }],
    ["an array by index", "ids[0]=x&ids[1]=y", { ids: ["x", "y"] }],
    [
      "objects in an array",
      "items[0][id]=7&items[0][qty]=2&items[1][id]=8",
      { items: [{ id: "7", qty: "2" }, { id: "8" }] },
    ],
    ["objects appended with []", "items[][id]=1&items[][id]=2", { items: [{ id: "1" }, { id: "2" }] }],
    ["a repeated bracketed name", "a[b]=1&a[b]=2", { a: { b: ["1", "2"] } }],
    [
      "a name that is not bracketed as a whole",
      "a[b]c=1&[a]=2&a[b=3&a]=4",
      { "a[b]c": "1", "[a]": "2", "a[b": "3", "a]": "4" },
    ],
    ["a leading zero index, an object key", "a[01]=x", { a: { "01": "x" } }],
  ])("%s", (_label, text, expected) => {
    expect(parseForm(text)).toEqual(expected);
  });

  it("makes an array up to index 1000, an object beyond, so that no huge array is allocated", () => {
    const near = parseForm("a[1000]=x").a as unknown[];
    expect(Array.isArray(near)).toBe(true);
    expect(near).toHaveLength(1001);
    expect(near[1000]).toBe("x");
    expect(parseForm("a[1001]=x")).toEqual({ a: { "1001": "x" } });
    expect(parseForm("a[99999999999]=x")).toEqual({ a: { "99999999999": "x" } });
  });

  it("nests 16 brackets deep, and keeps a deeper name as it is", () => {
    const sixteen = `a${"[b]".repeat(16)}`;
    let node: unknown = parseForm(`${sixteen}=x`).a;
    for (let i = 0; i < 16; i++) node = (node as Record<string, unknown>).b;
    expect(node).toBe("x");
    const seventeen = `a${"[b]".repeat(17)}`;
    expect(parseForm(`${seventeen}=x`)).toEqual({ [seventeen]: "x" });
  });

  it.each([
    "__proto__=x",
    "__proto__[polluted]=x",
    "a[__proto__][polluted]=x",
    "constructor[prototype][polluted]=x",
    "a[constructor][prototype][polluted]=x",
  ])("%s is data: an own key, never a prototype", (text) => {
    const form = parseForm(text);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(form)).toBe(Object.prototype);
    expect(Object.keys(form)).toHaveLength(1);
    expect(JSON.stringify(form)).toContain('"x"');
  });

  it("keeps __proto__ as an own data key at every level", () => {
    const form = parseForm("__proto__[a]=1&b[__proto__]=2&c[]=3&c[__proto__]=4");
    expect(Object.hasOwn(form, "__proto__")).toBe(true);
    expect(Object.getOwnPropertyDescriptor(form, "__proto__")?.value).toEqual({ a: "1" });
    const b = form.b as Record<string, unknown>;
    expect(Object.hasOwn(b, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(b)).toBe(Object.prototype);
    expect(Object.hasOwn(form.c as object, "__proto__")).toBe(true);
    expect(JSON.parse(JSON.stringify(form))).toEqual(
      JSON.parse('{"__proto__":{"a":"1"},"b":{"__proto__":"2"},"c":["3"]}'),
    );
  });
});
