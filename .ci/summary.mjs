// Adds up the JSON reports of the test runners into one closing line: "tests: N passed, N failed".
// Each failed test is named above it with the first line of its error, so the end of a CI log says what
// failed without scrolling back through the runner's own output.
import { existsSync, readFileSync } from "node:fs";
import { relative } from "node:path";

let passed = 0;
let failed = 0;
let skipped = 0;
const failures = [];

const firstLine = (text) =>
  String(text ?? "")
    .replace(/\x1b\[[0-9;]*m/g, "")
    .split("\n")
    .map((l) => l.trim())
    .find(Boolean)
    ?.slice(0, 300) ?? "";

/** Playwright nests suites (files, describe blocks); specs hold the tests. */
function* playwrightTests(suite) {
  for (const spec of suite.specs ?? []) for (const test of spec.tests ?? []) yield { spec, test };
  for (const child of suite.suites ?? []) yield* playwrightTests(child);
}

for (const file of process.argv.slice(2)) {
  if (!existsSync(file)) {
    console.error(`missing report ${file}`);
    failed += 1;
    continue;
  }
  const report = JSON.parse(readFileSync(file, "utf8"));
  if ("numPassedTests" in report) {
    // Vitest (Jest-compatible JSON)
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    skipped += report.numPendingTests + (report.numTodoTests ?? 0);
    console.log(`${file}: ${report.numPassedTests} passed, ${report.numFailedTests} failed`);
    for (const suite of report.testResults ?? []) {
      const where = relative(process.cwd(), suite.name);
      for (const test of suite.assertionResults ?? [])
        if (test.status === "failed") failures.push(`${file}: ${where} > ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
      // A file that failed before any test ran (an import error, a hook timeout) has no failed test of its own.
      if (suite.status === "failed" && !(suite.assertionResults ?? []).some((t) => t.status === "failed"))
        failures.push(`${file}: ${where}: ${firstLine(suite.message) || "the file failed outside its tests"}`);
    }
  } else if (report.stats) {
    // Playwright
    passed += report.stats.expected + (report.stats.flaky ?? 0);
    failed += report.stats.unexpected;
    skipped += report.stats.skipped;
    console.log(`${file}: ${report.stats.expected} passed (${report.stats.flaky ?? 0} flaky), ${report.stats.unexpected} failed`);
    for (const suite of report.suites ?? [])
      for (const { spec, test } of playwrightTests(suite)) {
        if (test.status !== "unexpected" && test.status !== "flaky") continue;
        const error = test.results?.find((r) => r.status !== "passed")?.errors?.[0]?.message;
        failures.push(`${file}: ${spec.file}:${spec.line} > ${spec.title} (${test.status}): ${firstLine(error)}`);
      }
  }
}
for (const line of failures) console.log(`  failed: ${line}`);
console.log(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
