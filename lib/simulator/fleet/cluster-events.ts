// core/v1 Events about cluster-scoped objects (Nodes, Crossplane managed resources), as client-go's legacy
// recorder writes them: stored in namespace `default` (the involved object has none), `involvedObject`
// without a namespace, `source.component` and `reportingComponent` the controller, `reportingInstance` "",
// `eventTime: null`, and `count` / `lastTimestamp` moved by the correlator for repeats.
import type { KubeObject } from "../contract";
import type { ObjectIdentity } from "./flux";
import { iso, uuid } from "./random";

export interface ClusterScopedEventInput {
  id: ObjectIdentity;
  involved: KubeObject;
  reason: string;
  message: string;
  type: "Normal" | "Warning";
  /** e.g. `node-controller`, `kubelet`, `managed/cluster.eks.aws.crossplane.io` */
  controller: string;
  /** source.host (the kubelet sets its node name) */
  host?: string;
  /** involvedObject.uid when it is not the object's uid (the kubelet uses the node name) */
  involvedUid?: string;
  first: number;
  last: number;
  count: number;
}

export function clusterScopedEvent(input: ClusterScopedEventInput): KubeObject {
  const involved = input.involved;
  const name = `${involved.metadata.name}.${(BigInt(input.first) * 1_000_000n + BigInt(input.reason.length)).toString(16)}`;
  return {
    apiVersion: "v1",
    kind: "Event",
    metadata: {
      name,
      namespace: "default",
      uid: uuid(`${input.id.seed}:${input.id.cluster}:event:default:${name}:${input.reason}`),
      creationTimestamp: iso(input.first),
    },
    involvedObject: {
      apiVersion: involved.apiVersion,
      kind: involved.kind,
      name: involved.metadata.name,
      uid: input.involvedUid ?? involved.metadata.uid,
    },
    reason: input.reason,
    message: input.message,
    source: input.host ? { component: input.controller, host: input.host } : { component: input.controller },
    firstTimestamp: iso(input.first),
    lastTimestamp: iso(input.last),
    count: input.count,
    type: input.type,
    eventTime: null,
    reportingComponent: input.controller,
    reportingInstance: input.host ?? "",
  };
}
