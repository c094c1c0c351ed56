// Regenerates a file of lib/simulator/kube/crd-schemas/ (argocd.json, crossplane.json) from CRD manifests, so
// the simulator can check what it serves (and what clients write) against the real schemas without the CRD
// files at hand. Each CRD contributes its storage version.
//
//   npx tsx scripts/generate-crd-schemas.ts --source "argoproj/argo-cd v3.5.1 (109ca7ca) manifests/crds" \
//     path/to/application-crd.yaml path/to/applicationset-crd.yaml path/to/appproject-crd.yaml
//   npx tsx scripts/generate-crd-schemas.ts --out crossplane.json \
//     --source "crossplane-contrib/provider-aws v0.58.0 (405d4d48) and provider-upjet-aws v2.6.0 (857b535d), package/crds" \
//     eks.aws.crossplane.io_clusters.yaml eks.aws.crossplane.io_nodegroups.yaml eks.aws.upbound.io_clusters.yaml \
//     eks.aws.upbound.io_clusterauths.yaml eks.aws.upbound.io_nodegroups.yaml
//
// Kinds are keyed by kind, or by kind.group when two CRDs share a kind (provider-aws and Upbound both have a
// Cluster and a NodeGroup); such entries name their kind.
//
// Descriptions are dropped (prose is not needed to validate), and subtrees that occur more than once (the
// ApplicationSource in a dozen places, the Application template in every ApplicationSet generator) are kept
// once under `defs` and referenced as {"$ref": "<id>"}: 1.8 MB of YAML becomes ~40 KB of JSON.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { parse } from "yaml";

type Schema = Record<string, unknown>;
const OUT_DIR = join(import.meta.dirname, "..", "lib", "simulator", "kube", "crd-schemas");
const MIN_SHARED = 200;

function strip(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(strip);
  if (!node || typeof node !== "object") return node;
  const out: Schema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "description") continue;
    out[key] =
      key === "properties"
        ? Object.fromEntries(Object.entries(value as Schema).map(([name, property]) => [name, strip(property)]))
        : strip(value);
  }
  return out;
}

/** Child schemas of a node (where $refs may stand). */
function mapChildren(node: Schema, fn: (child: Schema) => unknown): Schema {
  const out: Schema = { ...node };
  if (node.properties) out.properties = Object.fromEntries(Object.entries(node.properties as Schema).map(([k, v]) => [k, fn(v as Schema)]));
  if (node.items && typeof node.items === "object") out.items = fn(node.items as Schema);
  if (node.additionalProperties && typeof node.additionalProperties === "object")
    out.additionalProperties = fn(node.additionalProperties as Schema);
  return out;
}

function main() {
  const { values, positionals } = parseArgs({
    options: { source: { type: "string" }, out: { type: "string", default: "argocd.json" } },
    allowPositionals: true,
  });
  if (!values.source || positionals.length === 0 || !/^[a-z0-9-]+\.json$/.test(values.out)) {
    console.error("usage: tsx scripts/generate-crd-schemas.ts [--out <name>.json] --source <where the CRDs come from> <crd.yaml>...");
    process.exit(2);
  }
  const OUT = join(OUT_DIR, values.out);
  const roots: Record<
    string,
    { kind?: string; group: string; version: string; plural: string; statusSubresource: boolean; schema: Schema }
  > = {};
  type Crd = {
    spec: {
      group: string;
      names: { kind: string; plural: string };
      versions: Array<{
        name: string;
        served: boolean;
        storage: boolean;
        subresources?: { status?: unknown };
        schema: { openAPIV3Schema: unknown };
      }>;
    };
  };
  const crds = positionals.map((file) => parse(readFileSync(file, "utf8")) as Crd);
  const kindsSeen = new Map<string, number>();
  for (const crd of crds) kindsSeen.set(crd.spec.names.kind, (kindsSeen.get(crd.spec.names.kind) ?? 0) + 1);
  for (const crd of crds) {
    const version = crd.spec.versions.find((v) => v.storage) ?? crd.spec.versions[0];
    const shared = (kindsSeen.get(crd.spec.names.kind) ?? 0) > 1;
    roots[shared ? `${crd.spec.names.kind}.${crd.spec.group}` : crd.spec.names.kind] = {
      ...(shared ? { kind: crd.spec.names.kind } : {}),
      group: crd.spec.group,
      version: version.name,
      plural: crd.spec.names.plural,
      statusSubresource: version.subresources?.status !== undefined,
      schema: strip(version.schema.openAPIV3Schema) as Schema,
    };
  }

  // Pass 1: count every subtree by its JSON; pass 2: replace repeated big ones by references.
  const counts = new Map<string, number>();
  const count = (node: Schema): void => {
    const json = JSON.stringify(node);
    counts.set(json, (counts.get(json) ?? 0) + 1);
    mapChildren(node, (child) => count(child));
  };
  for (const root of Object.values(roots)) count(root.schema);
  const defs: Record<string, Schema> = {};
  const ids = new Map<string, string>();
  const share = (node: Schema): Schema => {
    const json = JSON.stringify(node);
    const shared = (counts.get(json) ?? 0) > 1 && json.length >= MIN_SHARED;
    if (shared && ids.has(json)) return { $ref: ids.get(json)! };
    const id = shared ? `d${ids.size}` : undefined;
    if (id) ids.set(json, id);
    const rebuilt = mapChildren(node, (child) => share(child));
    if (!id) return rebuilt;
    defs[id] = rebuilt;
    return { $ref: id };
  };
  const kinds = Object.fromEntries(
    Object.entries(roots).map(([kind, root]) => [kind, { ...root, schema: mapChildren(root.schema, (c) => share(c)) }]),
  );
  const out = { source: values.source, generatedBy: "scripts/generate-crd-schemas.ts", kinds, defs };
  writeFileSync(OUT, JSON.stringify(out) + "\n");
  console.log(
    `wrote ${OUT} (${Object.keys(kinds).join(", ")}; ${Object.keys(defs).length} shared subtrees; ${JSON.stringify(out).length} bytes)`,
  );
}

main();
