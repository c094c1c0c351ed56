// The kinds Crow's Nest collects (Flux's and Argo CD's), their URL form (lower case) and every name a person
// or an alert may use for them: singular, plural, short name (as the CRDs declare), any case, with or
// without the API group ("HelmRelease.helm.toolkit.fluxcd.io", "applications.argoproj.io").

export const FLUX_KINDS = ["Kustomization", "HelmRelease", "GitRepository", "OCIRepository", "HelmRepository", "HelmChart"] as const;
export type FluxKind = (typeof FLUX_KINDS)[number];
/** Argo CD kinds, stored and shown beside the Flux ones. */
export const ARGO_KINDS = ["Application", "ApplicationSet"] as const;
/** Every kind of object Crow's Nest stores and shows, Flux's first. */
export const OBJECT_KINDS = [...FLUX_KINDS, ...ARGO_KINDS] as const;
export type ObjectKind = (typeof OBJECT_KINDS)[number];

interface KindNames {
  plural: string;
  short: string[];
  group: string;
}

const NAMES: Record<ObjectKind, KindNames> = {
  Kustomization: { plural: "kustomizations", short: ["ks"], group: "kustomize.toolkit.fluxcd.io" },
  HelmRelease: { plural: "helmreleases", short: ["hr"], group: "helm.toolkit.fluxcd.io" },
  GitRepository: { plural: "gitrepositories", short: ["gitrepo", "gitrepos"], group: "source.toolkit.fluxcd.io" },
  OCIRepository: { plural: "ocirepositories", short: ["ocirepo", "ocirepos"], group: "source.toolkit.fluxcd.io" },
  HelmRepository: { plural: "helmrepositories", short: ["helmrepo", "helmrepos"], group: "source.toolkit.fluxcd.io" },
  HelmChart: { plural: "helmcharts", short: ["hc"], group: "source.toolkit.fluxcd.io" },
  Application: { plural: "applications", short: ["app", "apps"], group: "argoproj.io" },
  ApplicationSet: { plural: "applicationsets", short: ["appset", "appsets"], group: "argoproj.io" },
};

const ALIASES = new Map<string, ObjectKind>();
for (const kind of OBJECT_KINDS) {
  const n = NAMES[kind];
  for (const alias of [kind.toLowerCase(), n.plural, ...n.short]) ALIASES.set(alias, kind);
}

/** The lower-case form used in URLs: /clusters/{cluster}/{kindSlug}/{namespace}/{name}. */
export function kindSlug(kind: ObjectKind | string): string {
  return kind.toLowerCase();
}

/** Exact URL segment → kind (only the canonical lower-case singular). */
export function kindFromSlug(slug: string): ObjectKind | null {
  const kind = ALIASES.get(slug);
  return kind && slug === kind.toLowerCase() ? kind : null;
}

/** Any name for a kind → the kind, or null: "HR", "helmreleases", "HelmRelease.helm.toolkit.fluxcd.io". */
export function resolveKind(text: string | null | undefined): ObjectKind | null {
  if (!text) return null;
  let t = text.trim().toLowerCase();
  const dot = t.indexOf(".");
  if (dot > 0) {
    const group = t.slice(dot + 1).replace(/\/.*$/, "");
    const kind = ALIASES.get(t.slice(0, dot));
    // "kind.group" only when the group is the kind's own (or a prefix typo-free form of it).
    return kind && NAMES[kind].group === group ? kind : null;
  }
  t = t.replace(/\s+/g, "");
  return ALIASES.get(t) ?? null;
}

export function isFluxKind(text: string): text is FluxKind {
  return (FLUX_KINDS as readonly string[]).includes(text);
}
