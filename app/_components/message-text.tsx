// A status or Event message as a person should read it on a page. Short messages are shown as they are.
// A long one (Flux keeps up to 32 KiB: a health check listing every resource it waited for) is shown in
// full in one place, collapsed behind a one-line excerpt and expandable without script; every other place
// on the page shows only the excerpt, so the page carries the text once, not once per section.
import { excerpt, isLongMessage, sameMessage } from "@/lib/fleet/message";

const mono = "whitespace-pre-wrap break-words font-mono text-xs";
const count = (n: number) => n.toLocaleString("en-US");

export interface SecondaryPlace {
  /** The messages the page shows in full elsewhere. */
  fullElsewhere: ReadonlyArray<string | null | undefined>;
  /** Where, e.g. "under Status". */
  where: string;
}

export function MessageText({
  message,
  secondary,
  className = "",
  testId,
}: {
  message: string | null | undefined;
  /** Set where a long message must stay an excerpt (tables and timelines below the status). */
  secondary?: SecondaryPlace;
  className?: string;
  testId?: string;
}) {
  if (!message) return null;
  if (!isLongMessage(message)) {
    return (
      <span className={`${mono} ${className}`} data-testid={testId}>
        {message}
      </span>
    );
  }
  if (secondary) {
    const same = secondary.fullElsewhere.some((m) => sameMessage(m, message));
    return (
      <span className={`${mono} ${className}`} data-testid={testId} data-excerpt="">
        {excerpt(message)}{" "}
        <span className="font-sans text-zinc-500">
          (
          {same
            ? `the full message is ${secondary.where}`
            : `${count(message.length)} characters; the current message is ${secondary.where}`}
          )
        </span>
      </span>
    );
  }
  return (
    <details className={className} data-testid={testId} data-long-message="">
      <summary className="cursor-pointer">
        <span className={mono}>{excerpt(message)}</span>{" "}
        <span className="text-xs text-sky-700 dark:text-sky-400">show all {count(message.length)} characters</span>
      </summary>
      <p className={`mt-1 ${mono}`}>{message}</p>
    </details>
  );
}

/** One line, cut on the server so the rest never reaches the browser (lists of many objects). */
export function MessageExcerpt({ message, className = "" }: { message: string | null | undefined; className?: string }) {
  if (!message) return null;
  return <span className={`break-words ${className}`}>{excerpt(message, 200)}</span>;
}
