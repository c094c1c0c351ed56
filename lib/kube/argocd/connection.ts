// A kubeconfig from a parsed Argo CD cluster secret, for the ways in Crow's Nest can use itself: a bearer
// token, basic auth, a client certificate, or an EKS token the caller minted (awsAuthConfig). Argo CD's
// in-cluster server means the hub (the caller's own kubeconfig) and an exec plugin is never run.
import { KubeConfig } from "@kubernetes/client-node";
import { KubeconfigError } from "../kubeconfig";
import { accessProblem } from "./cluster-secret";
import type { ArgoClusterAccess } from "./types";

const b64 = (pem: string) => Buffer.from(pem, "utf8").toString("base64");

export function argoKubeconfig(name: string, access: ArgoClusterAccess, eksToken?: string): KubeConfig {
  const auth = access.auth;
  if (auth.type === "in-cluster") throw new KubeconfigError("the in-cluster server is the hub: use the hub's own kubeconfig");
  const problem = accessProblem(access);
  if (problem) throw new KubeconfigError(problem);
  if (auth.type === "eks-token" && !eksToken) throw new KubeconfigError(`an EKS token for ${auth.clusterName} is needed`);
  const cert = access.tls.clientCert;
  const user = {
    name,
    ...(auth.type === "bearer" ? { token: auth.token } : {}),
    ...(auth.type === "eks-token" ? { token: eksToken } : {}),
    ...(auth.type === "basic" ? { username: auth.username, password: auth.password } : {}),
    ...(cert ? { certData: b64(cert.certPem), keyData: b64(cert.keyPem) } : {}),
  };
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [
      {
        name,
        server: access.endpoint,
        caData: access.tls.caPem ? b64(access.tls.caPem) : undefined,
        skipTLSVerify: access.tls.insecure,
        ...(access.tls.serverName ? { tlsServerName: access.tls.serverName } : {}),
      },
    ],
    users: [user],
    contexts: [{ name, cluster: name, user: name }],
    currentContext: name,
  });
  return kc;
}
