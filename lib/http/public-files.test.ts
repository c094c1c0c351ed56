import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, it } from "vitest";
import { listPublicFiles } from "./public-files";

it("lists the repository's public files by their URL path", () => {
  expect([...listPublicFiles()]).toEqual(["/favicon.svg"]);
});

it("lists nested and oddly named files exactly, and nothing when the folder is missing", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "public-files-"));
  mkdirSync(path.join(dir, "img"));
  writeFileSync(path.join(dir, "robots.txt"), "");
  writeFileSync(path.join(dir, "img", "a b.png"), "");
  expect([...listPublicFiles(dir)].sort()).toEqual(["/img/a%20b.png", "/robots.txt"]);
  expect(listPublicFiles(path.join(dir, "missing")).size).toBe(0);
});
