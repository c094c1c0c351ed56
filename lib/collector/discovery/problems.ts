// What went wrong while discovering, in two weights: a source that did not answer (the fleet may be
// incomplete, so no cluster is marked gone) and a note about one object (a broken secret) that leaves
// the rest of the answer whole; and the one LIST every hub source starts with.
import { oneLine } from "../../errors";
import { servedVersion } from "../../kube/crossplane";
import type { Raw } from "../../kube/raw";
import type { HubReader } from "./hub-reader";

export class SourceProblems {
  readonly messages: string[] = [];
  private incomplete = false;

  /** A list that did not answer: clusters it would have named may be missing. */
  failed(what: string, err: unknown): void {
    this.messages.push(`${what}: ${oneLine(err)}`);
    this.incomplete = true;
  }

  /** One object that cannot be used; everything else the source gave stands. */
  note(message: string): void {
    this.messages.push(message);
  }

  /** Another source's problems, in the order they happened. */
  absorb(other: SourceProblems): void {
    this.messages.push(...other.messages);
    if (!other.complete) this.incomplete = true;
  }

  get complete(): boolean {
    return !this.incomplete;
  }
}

/**
 * Every object of a kind the hub serves (at the version it prefers among those we read), or none when it does
 * not serve the kind. A failed LIST is noted; a 404 is not when `absentOk` (a group served without this kind).
 */
export async function listServedKind(
  hub: HubReader,
  served: Map<string, string[]>,
  kind: { group: string; versions: readonly string[]; plural: string },
  problems: SourceProblems,
  options: { absentOk?: boolean; what?: string } = {},
): Promise<Raw[]> {
  const version = servedVersion(served, kind.group, [...kind.versions]);
  if (!version) return [];
  try {
    return await hub.list(`/apis/${kind.group}/${version}/${kind.plural}`);
  } catch (err) {
    if (!(options.absentOk && (err as { status?: number }).status === 404))
      problems.failed(options.what ?? `listing ${kind.plural}.${kind.group} in the hub`, err);
    return [];
  }
}
