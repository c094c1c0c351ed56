import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

const config = [
  ...nextCoreWebVitals,
  ...nextTypescript,
  {
    ignores: [
      "node_modules/**",
      ".next/**",
      ".next-*/**",
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
    // Test helpers named use* are not React hooks.
    files: ["**/*.test.ts", "lib/testing/**", "e2e/**"],
    rules: { "react-hooks/rules-of-hooks": "off" },
  },
  {
    // House rules: the web app reads the database only; clusters and AWS belong to the collector.
    files: ["app/**/*.ts", "app/**/*.tsx"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: [
                "@/lib/kube",
                "@/lib/kube/*",
                "@/lib/aws",
                "@/lib/aws/*",
                "@/lib/collector",
                "@/lib/collector/*",
                "**/lib/kube/**",
                "**/lib/aws/**",
                "**/lib/collector/**",
              ],
              message: "app/ never talks to clusters or AWS: read the database through lib/db/queries.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["**/*.client.tsx"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: [
                "@/lib/db/client",
                "@/lib/db/client*",
                "**/lib/db/client*",
                "@/lib/db/writes/*",
                "**/lib/db/writes/**",
                "@/lib/kube/*",
                "@/lib/aws/*",
                "@/lib/collector/*",
              ],
              message: "client components never import the database or cluster code",
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
];

export default config;
