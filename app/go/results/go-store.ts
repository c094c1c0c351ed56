// The resolution a /go/results render computed, for its not-found boundary (same request).
import { cache } from "react";
import type { GoResolution } from "@/lib/db/queries/go";

export const goResultStore = cache((): { resolution: GoResolution | null } => ({ resolution: null }));
