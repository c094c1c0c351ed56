// Roles from the identity provider's groups claim. Pure: fed claims and the configured group lists.

export const ROLES = ["viewer", "operator", "admin"] as const;
export type Role = (typeof ROLES)[number];

export interface RoleMapping {
  adminGroups: string[];
  operatorGroups: string[];
  /** Empty: every signed-in user is at least a viewer. */
  viewerGroups: string[];
}

export function roleAtLeast(role: Role, minimum: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(minimum);
}

/** The highest role the groups grant, or null when the user may not use Crow's Nest at all. */
export function roleFromGroups(groups: readonly string[], mapping: RoleMapping): Role | null {
  const has = (wanted: string[]) => wanted.some((g) => groups.includes(g));
  if (has(mapping.adminGroups)) return "admin";
  if (has(mapping.operatorGroups)) return "operator";
  if (mapping.viewerGroups.length === 0 || has(mapping.viewerGroups)) return "viewer";
  return null;
}

/**
 * Group names from a claim. The claim name may be a dotted path (Keycloak's `realm_access.roles`);
 * the value may be an array of strings or one string (some providers send a single group that way).
 */
export function groupsFromClaims(claims: Record<string, unknown>, claimName: string): string[] {
  let value: unknown = claims[claimName];
  if (value === undefined && claimName.includes(".")) {
    value = claimName
      .split(".")
      .reduce<unknown>((node, key) => (node && typeof node === "object" ? (node as Record<string, unknown>)[key] : undefined), claims);
  }
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.filter((g): g is string => typeof g === "string");
  return [];
}
