// EKS cluster ARNs: the name alerts and kubeconfigs often carry instead of our cluster name.

/** `arn:aws:eks:<region>:<account>:cluster/<name>` → its parts, else null. */
export function parseEksArn(text: string | null | undefined): { region: string; accountId: string; name: string; arn: string } | null {
  const m = /^arn:aws[a-z-]*:eks:([a-z0-9-]+):(\d{12}):cluster\/([A-Za-z0-9][A-Za-z0-9_-]*)$/.exec(text ?? "");
  return m ? { region: m[1], accountId: m[2], name: m[3], arn: text! } : null;
}
