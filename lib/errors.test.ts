import { describe, expect, it } from "vitest";
import { oneLine } from "./errors";

describe("oneLine", () => {
  it("keeps the first non-empty line of an Error, an SDK error object or a text", () => {
    expect(oneLine(new Error("\n  connect ECONNREFUSED 127.0.0.1:5432  \n    at TCPConnectWrap"))).toBe(
      "connect ECONNREFUSED 127.0.0.1:5432",
    );
    expect(oneLine({ name: "AccessDeniedException", message: "User is not authorized\nRequest id 1" })).toBe("User is not authorized");
    expect(oneLine("plain text\nmore")).toBe("plain text");
    expect(oneLine(42)).toBe("42");
  });

  it("answers the fallback when there is no text", () => {
    expect(oneLine(new Error(""))).toBe("unknown error");
    expect(oneLine(" \n ", "")).toBe("");
  });
});
