import { isRecord } from "../../json-value.js";
import { readDiscriminator } from "../../schema/discriminator.js";
import { childLocation, locationKey, type SchemaLocation } from "./location.js";
import type { SchemaRegistry } from "./registry.js";
import { appliedSubschemas } from "./subschemas.js";

/** Facts about the reference graph that decide which function variants are needed. */
export interface RefGraph {
  /** the schema at `location`, or anything it references, declares `readOnly: true` */
  hasReadOnly(location: SchemaLocation): boolean;
  /** the schema at `location`, or anything it references, declares `writeOnly: true` */
  hasWriteOnly(location: SchemaLocation): boolean;
  /**
   * the schema at `location` may reach itself or another schema again through its references,
   * so the validator of an instance may go as deep as the instance does (true for a location
   * the graph does not hold)
   */
  mayRecur(location: SchemaLocation): boolean;
}

interface GraphNode {
  readonly location: SchemaLocation;
  readOnly: boolean;
  writeOnly: boolean;
  readonly refs: SchemaLocation[];
  /** the anchor names of its `$dynamicRef`s (plain-name fragments) */
  readonly dynamicNames: string[];
  /** the embedded resources (`$id`) it enters */
  readonly resources: string[];
}

/** Scans every schema reachable from `roots` once (linear in the reachable schemas). */
export function buildRefGraph(registry: SchemaRegistry, roots: readonly SchemaLocation[]): RefGraph {
  const nodes = new Map<string, GraphNode>();
  const queue = [...roots];
  for (;;) {
    for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
      const key = locationKey(next);
      if (nodes.has(key)) continue;
      const node: GraphNode = {
        location: next,
        readOnly: false,
        writeOnly: false,
        refs: [],
        dynamicNames: [],
        resources: [],
      };
      scan(registry, registry.schemaAt(next), next, registry.baseOf(next), node);
      nodes.set(key, node);
      for (const target of node.refs) if (!nodes.has(locationKey(target))) queue.push(target);
    }
    queue.push(...dynamicTargets(registry, nodes));
    if (queue.length === 0) break;
  }
  const readOnly = propagate(nodes, (node) => node.readOnly);
  const writeOnly = propagate(nodes, (node) => node.writeOnly);
  const finite = acyclic(nodes);
  return {
    hasReadOnly: (location) => readOnly.has(locationKey(location)),
    hasWriteOnly: (location) => writeOnly.has(locationKey(location)),
    mayRecur: (location) => !finite.has(locationKey(location)),
  };
}

/**
 * Keys of nodes that reach no cycle of references: those without references, then, again and
 * again, those whose every reference is to one of them (linear in the references).
 */
function acyclic(nodes: ReadonlyMap<string, GraphNode>): Set<string> {
  const referrers = referrersOf(nodes);
  const pending = new Map<string, number>();
  const queue: string[] = [];
  for (const [key, node] of nodes) {
    const targets = new Set(node.refs.map(locationKey));
    pending.set(key, targets.size);
    if (targets.size === 0) queue.push(key);
  }
  const done = new Set<string>();
  for (let key = queue.pop(); key !== undefined; key = queue.pop()) {
    done.add(key);
    for (const referrer of new Set(referrers.get(key) ?? [])) {
      const left = (pending.get(referrer) ?? 0) - 1;
      pending.set(referrer, left);
      if (left === 0) queue.push(referrer);
    }
  }
  return done;
}

/** The keys of the nodes that reference each key. */
function referrersOf(nodes: ReadonlyMap<string, GraphNode>): Map<string, string[]> {
  const referrers = new Map<string, string[]>();
  for (const [key, node] of nodes) {
    for (const target of node.refs) {
      const list = referrers.get(locationKey(target)) ?? [];
      list.push(key);
      referrers.set(locationKey(target), list);
    }
  }
  return referrers;
}

/**
 * A `$dynamicRef` may lead to any `$dynamicAnchor` of its name that the dynamic scope binds, and
 * the scope holds only resources evaluation enters: those of the anchors in resources reached so
 * far, added to the referring nodes; returns the ones not yet scanned.
 */
function dynamicTargets(registry: SchemaRegistry, nodes: ReadonlyMap<string, GraphNode>): SchemaLocation[] {
  const fresh: SchemaLocation[] = [];
  if (![...nodes.values()].some((node) => node.dynamicNames.length > 0)) return fresh;
  const entered = new Set<string>();
  for (const node of nodes.values()) {
    entered.add(registry.resourceOf(node.location));
    for (const resource of node.resources) entered.add(resource);
  }
  for (const node of nodes.values()) {
    for (const name of node.dynamicNames) {
      for (const anchor of registry.dynamicAnchorsNamed(name)) {
        if (!entered.has(registry.resourceOf(anchor))) continue;
        if (node.refs.some((target) => locationKey(target) === locationKey(anchor))) continue;
        node.refs.push(anchor);
        if (!nodes.has(locationKey(anchor))) fresh.push(anchor);
      }
    }
  }
  return fresh;
}

function scan(registry: SchemaRegistry, schema: unknown, at: SchemaLocation, outerBase: string, node: GraphNode): void {
  if (!isRecord(schema)) return;
  const base = registry.baseWithin(schema, outerBase);
  if (schema["readOnly"] === true) node.readOnly = true;
  if (schema["writeOnly"] === true) node.writeOnly = true;
  for (const keyword of ["$ref", "$dynamicRef"]) {
    const ref = schema[keyword];
    if (typeof ref === "string") node.refs.push(registry.resolveRef(ref, base, childLocation(at, keyword)));
  }
  if (base !== outerBase) node.resources.push(base);
  const dynamic = schema["$dynamicRef"];
  if (typeof dynamic === "string" && dynamic.includes("#")) {
    const name = dynamic.slice(dynamic.indexOf("#") + 1);
    if (name !== "" && !name.startsWith("/")) node.dynamicNames.push(name);
  }
  const discrimination = readDiscriminator(registry.tree, registry.rules, schema, at);
  const fallback = discrimination?.fallback;
  for (const target of [...(discrimination?.cases.values() ?? []), ...(fallback === undefined ? [] : [fallback])])
    if (typeof target === "object") node.refs.push(target.location);
  for (const sub of appliedSubschemas(schema, registry.rules)) {
    scan(registry, sub.schema, childLocation(at, ...sub.tokens), base, node);
  }
}

/** Keys of nodes that have the flag or reach a node that has it. */
function propagate(nodes: ReadonlyMap<string, GraphNode>, flag: (node: GraphNode) => boolean): Set<string> {
  const referrers = referrersOf(nodes);
  const marked = new Set<string>();
  const queue = [...nodes].filter(([, node]) => flag(node)).map(([key]) => key);
  for (let key = queue.pop(); key !== undefined; key = queue.pop()) {
    if (marked.has(key)) continue;
    marked.add(key);
    for (const referrer of referrers.get(key) ?? []) if (!marked.has(referrer)) queue.push(referrer);
  }
  return marked;
}
