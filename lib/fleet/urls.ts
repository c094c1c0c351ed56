// Canonical, stable URLs. Alerts and people link to them, so they never change shape.
import { kindSlug } from "./kinds";

const seg = (s: string) => encodeURIComponent(s);

export function clusterPath(cluster: string): string {
  return `/clusters/${seg(cluster)}`;
}

export function clusterApiPath(cluster: string): string {
  return `/api/clusters/${seg(cluster)}`;
}

export function objectPath(ref: { cluster: string; kind: string; namespace: string; name: string }): string {
  return `/clusters/${seg(ref.cluster)}/${kindSlug(ref.kind)}/${seg(ref.namespace)}/${seg(ref.name)}`;
}

export function objectApiPath(ref: { cluster: string; kind: string; namespace: string; name: string }): string {
  return `/api/objects/${seg(ref.cluster)}/${kindSlug(ref.kind)}/${seg(ref.namespace)}/${seg(ref.name)}`;
}
