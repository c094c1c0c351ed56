// Status messages can be huge: Flux keeps up to 32,768 bytes in a condition (a health check that lists
// every resource it waited for) and the Kubernetes Event carries the same text untrimmed. A page shows
// such a message in full once and a one-line excerpt everywhere else; these rules decide which is which.

/** Flux trims condition messages to this many bytes, the last three being "..." (fluxcd/pkg runtime/conditions). */
export const FLUX_CONDITION_MESSAGE_LIMIT = 32_768;
const TRIM_SUFFIX = "...";
/** Shorter messages than this are never taken for a trimmed copy of a longer one. */
const MIN_TRIMMED_LENGTH = 1_024;

/** Longer than a person reads at a glance: shown collapsed, with a way to expand. */
export function isLongMessage(message: string): boolean {
  if (message.length > 600) return true;
  let lines = 1;
  for (let i = message.indexOf("\n"); i >= 0 && lines <= 8; i = message.indexOf("\n", i + 1)) lines++;
  return lines > 8;
}

/** The first line of `message`, at most `max` characters, with "…" when anything was left out. */
export function excerpt(message: string, max = 160): string {
  const newline = message.indexOf("\n");
  const firstLine = newline >= 0 ? message.slice(0, newline) : message;
  const cut = firstLine.length > max ? firstLine.slice(0, max - 1).trimEnd() : firstLine;
  return cut.length < message.length ? `${cut}…` : cut;
}

/**
 * The same text, allowing for Flux's trimming: a condition's 32 KiB message ending in "..." is the same as
 * the untrimmed Event message it starts.
 */
export function sameMessage(a: string | null | undefined, b: string | null | undefined): boolean {
  if (!a || !b) return false;
  if (a === b) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  return short.length >= MIN_TRIMMED_LENGTH && short.endsWith(TRIM_SUFFIX) && long.startsWith(short.slice(0, -TRIM_SUFFIX.length));
}

interface StoredMessage {
  message?: string | null;
  /** Set instead of `message` when the text is the object's Ready message, stored once beside it. */
  messageIsReadyMessage?: true;
}

/**
 * Conditions as stored: a long message equal to the Ready message (Flux writes the same 32 KiB into Ready
 * and Healthy) points at the one copy kept as the object's Ready message instead of repeating it.
 */
export function conditionsToStore<C extends StoredMessage>(conditions: readonly C[], readyMessage: string | null): C[] {
  if (!readyMessage || !isLongMessage(readyMessage)) return [...conditions];
  return conditions.map((c) => (c.message === readyMessage ? { ...c, message: null, messageIsReadyMessage: true } : c));
}

/** The stored form back: every condition with its own message. */
export function conditionMessage(stored: StoredMessage, readyMessage: string | null): string | null {
  if (stored.messageIsReadyMessage === true) return readyMessage;
  return typeof stored.message === "string" && stored.message ? stored.message : null;
}
