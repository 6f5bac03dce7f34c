import { appendPointer } from "../../json-pointer.js";
import { entriesAt, followRef, type Located } from "../../model/document-nodes.js";
import type { ResponseModel } from "../../model/types.js";
import type { Finding } from "../findings/finding.js";
import { compareResidual, rawPair } from "../findings/residual.js";
import { compareSchemas } from "../schema/compare-schema.js";
import { type OperationContext, schemaContextOf } from "./operation-context.js";

const HANDLED: ReadonlySet<string> = new Set(["required", "schema"]);

/** A response header as declared, after $refs. */
interface Header {
  readonly name: string;
  readonly located: Located;
}

/** Response headers (names compared case-insensitively): removed, added, made required or optional, retyped. */
export function compareHeaders(ctx: OperationContext, old: ResponseModel, now: ResponseModel): Finding[] {
  const before = headersOf(ctx.sides.base.loaded.document, old.pointer);
  const after = headersOf(ctx.sides.head.loaded.document, now.pointer);
  const label = (header: Header): string => `response ${now.status} header \`${header.name}\``;
  return [
    ...[...before].flatMap(([key, header]): Finding[] => {
      const partner = after.get(key);
      if (partner !== undefined)
        return compareHeader(ctx, {
          header,
          partner,
          label: label(partner),
          owner: ctx.after.names.responseTypes[now.status],
        });
      const rule = isRequired(header) ? "required-response-header-removed" : "response-header-removed";
      return [
        {
          rule,
          pointer: header.located.pointer,
          at: now.pointer,
          before: header.name,
          message: `${label(header)}: removed`,
        },
      ];
    }),
    ...[...after]
      .filter(([key]) => !before.has(key))
      .map(([, header]) => ({
        rule: "response-header-added" as const,
        pointer: header.located.pointer,
        after: header.name,
        message: `${label(header)}: added`,
      })),
  ];
}

function headersOf(document: unknown, responsePointer: string): Map<string, Header> {
  const response = followRef(document, { $ref: responsePointer }, responsePointer);
  if (response === undefined) return new Map();
  return new Map(
    entriesAt(response, "headers").flatMap(([name, node, pointer]) => {
      const located = followRef(document, node, pointer);
      return located === undefined || name.toLowerCase() === "content-type"
        ? []
        : [[name.toLowerCase(), { name, located }] as const];
    }),
  );
}

function isRequired(header: Header): boolean {
  return header.located.node.required === true;
}

interface HeaderPair {
  readonly header: Header;
  readonly partner: Header;
  readonly label: string;
  readonly owner: string | undefined;
}

function compareHeader(ctx: OperationContext, { header, partner, label, owner }: HeaderPair): Finding[] {
  const [was, is] = [isRequired(header), isRequired(partner)];
  const show = (required: boolean): string => (required ? "required" : "optional");
  const required: Finding[] =
    was === is
      ? []
      : [
          {
            rule: is ? "response-header-became-required" : "response-header-became-optional",
            pointer: partner.located.pointer,
            before: show(was),
            after: show(is),
            message: `${label}: became ${show(is)}`,
          },
        ];
  const schema = (side: Header): { value: unknown; pointer: string }[] => [
    { value: side.located.node.schema ?? true, pointer: appendPointer(side.located.pointer, "schema") },
  ];
  const pointers = { base: header.located.pointer, head: partner.located.pointer };
  return [
    ...required,
    ...compareSchemas(schemaContextOf(ctx, "response", label, owner), schema(header), schema(partner)),
    ...compareResidual(
      rawPair(ctx.sides.base.loaded.document, ctx.sides.head.loaded.document, pointers, label, "response"),
      HANDLED,
    ),
  ];
}
