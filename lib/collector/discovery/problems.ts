// What went wrong while discovering, in two weights: a source that did not answer (the fleet may be
// incomplete, so no cluster is marked gone) and a note about one object (a broken secret) that leaves
// the rest of the answer whole.
import { oneLine } from "../../errors";

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

  get complete(): boolean {
    return !this.incomplete;
  }
}
