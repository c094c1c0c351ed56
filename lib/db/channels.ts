// LISTEN/NOTIFY channels between the web app and the collector: the one place their names are spelled.
// A notification only wakes the collector early; the queue tables it reads every cycle are the record.

/** Poll this cluster now (a Flux webhook, or an operator action that changed it); payload: the cluster name. */
export const NUDGE_CHANNEL = "crows_nest_nudge";
/** An operator action was queued; payload: the operator_action id. */
export const ACTION_CHANNEL = "crows_nest_action";
/**
 * Stored fleet data changed (the collector wrote a poll, EKS facts, upstream versions or discovery results);
 * payload: the cluster names, comma-separated, "*" for fleet-wide data. Web replicas recompute their cached
 * views on any of them.
 */
export const CHANGE_CHANNEL = "crows_nest_changed";
