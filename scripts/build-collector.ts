// npm run build:collector (part of npm run build): compiles the collector into dist/collector.mjs, the file
// the image and the Helm chart run. See scripts/lib/node-bundle.ts for why it is not run through tsx.
import { bundleForNode, COLLECTOR_BUNDLE } from "./lib/node-bundle";

await bundleForNode("lib/collector/main.ts", COLLECTOR_BUNDLE);
console.log(`collector compiled into ${COLLECTOR_BUNDLE}`);
