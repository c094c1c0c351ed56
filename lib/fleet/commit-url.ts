// Links a Flux revision to its commit on the Git host the source points at. Handles the URL forms Flux
// accepts for each host: https (with or without a user and ".git"), ssh://git@host/..., scp-like
// git@host:path, Azure DevOps (dev.azure.com, *.visualstudio.com, ssh.dev.azure.com:v3) and CodeCommit
// (HTTPS, SSH and git-remote-codecommit codecommit::region://repo).

export type GitProvider = "github" | "gitlab" | "bitbucket" | "bitbucket-server" | "azure-devops" | "codecommit";

export interface CommitLink {
  provider: GitProvider;
  sha: string;
  /** Web page of the commit. */
  url: string;
  /** Web page of the repository. */
  repositoryUrl: string;
}

/** The commit SHA inside a Flux revision: "main@sha1:<sha>", "sha1:<sha>", "main/<sha>" or "<sha>". */
export function commitShaOf(revision: string | null | undefined): string | null {
  if (!revision) return null;
  const m = /(?:^|@)sha1:([0-9a-f]{40})$/i.exec(revision) ?? /(?:^|\/)([0-9a-f]{40})$/i.exec(revision);
  return m ? m[1].toLowerCase() : null;
}

interface ParsedRemote {
  host: string;
  path: string;
}

function parseRemote(url: string): ParsedRemote | null {
  const text = url.trim();
  const grc = /^codecommit::([a-z0-9-]+):\/\/(?:[^@/]+@)?([^/]+)$/i.exec(text);
  if (grc) return { host: `git-codecommit.${grc[1]}.amazonaws.com`, path: `v1/repos/${grc[2]}` };
  if (!text.includes("://")) {
    // scp-like: git@github.com:org/repo.git
    const scp = /^(?:[^@/]+@)?([^:/]+):(.+)$/.exec(text);
    return scp ? { host: scp[1].toLowerCase(), path: scp[2] } : null;
  }
  try {
    const u = new URL(text);
    return { host: u.hostname.toLowerCase(), path: decodeURIComponent(u.pathname) };
  } catch {
    return null;
  }
}

const trimPath = (p: string) =>
  p
    .replace(/^\/+/, "")
    .replace(/\/+$/, "")
    .replace(/\.git$/, "");

/** Repository web URL and provider for a Git remote URL, or null for hosts we do not know. */
export function repositoryWeb(
  url: string | null | undefined,
): { provider: GitProvider; url: string; commitUrl: (sha: string) => string } | null {
  if (!url) return null;
  const remote = parseRemote(url);
  if (!remote) return null;
  const { host } = remote;
  const path = trimPath(remote.path);

  if (host === "github.com" || host === "ssh.github.com") {
    const [owner, repo] = path.split("/");
    if (!owner || !repo) return null;
    const web = `https://github.com/${owner}/${repo}`;
    return { provider: "github", url: web, commitUrl: (sha) => `${web}/commit/${sha}` };
  }
  if (host === "bitbucket.org") {
    const [workspace, repo] = path.split("/");
    if (!workspace || !repo) return null;
    const web = `https://bitbucket.org/${workspace}/${repo}`;
    return { provider: "bitbucket", url: web, commitUrl: (sha) => `${web}/commits/${sha}` };
  }
  if (host === "dev.azure.com" || host === "ssh.dev.azure.com" || host.endsWith(".visualstudio.com")) {
    let org: string | undefined, project: string | undefined, repo: string | undefined;
    const parts = path.split("/");
    if (host === "ssh.dev.azure.com")
      [, org, project, repo] = parts; // v3/org/project/repo
    else if (host === "dev.azure.com")
      [org, project, , repo] = parts; // org/project/_git/repo
    else {
      org = host.split(".")[0];
      const rest = parts[0] === "DefaultCollection" ? parts.slice(1) : parts; // [DefaultCollection/]project/_git/repo
      [project, , repo] = rest;
    }
    if (!org || !project || !repo) return null;
    const web = `https://dev.azure.com/${org}/${project}/_git/${repo}`;
    return { provider: "azure-devops", url: web, commitUrl: (sha) => `${web}/commit/${sha}` };
  }
  const cc = /^git-codecommit(?:-fips)?\.([a-z0-9-]+)\.amazonaws\.com$/.exec(host);
  if (cc) {
    const region = cc[1];
    const repo = /^v1\/repos\/([^/]+)$/.exec(path)?.[1];
    if (!repo) return null;
    const web = `https://${region}.console.aws.amazon.com/codesuite/codecommit/repositories/${repo}/browse?region=${region}`;
    return {
      provider: "codecommit",
      url: web,
      commitUrl: (sha) =>
        `https://${region}.console.aws.amazon.com/codesuite/codecommit/repositories/${repo}/commit/${sha}?region=${region}`,
    };
  }
  // Bitbucket Server / Data Center: https://host/scm/PROJECT/repo.git or ssh://git@host:7999/project/repo.git
  if (/bitbucket/.test(host)) {
    const parts = path.split("/");
    const [project, repo] = parts[0] === "scm" ? parts.slice(1) : parts;
    if (!project || !repo) return null;
    const web = `https://${host}/projects/${project.toUpperCase()}/repos/${repo}`;
    return { provider: "bitbucket-server", url: web, commitUrl: (sha) => `${web}/commits/${sha}` };
  }
  // GitLab.com and self-managed GitLab (host name says so): groups may nest.
  if (host === "gitlab.com" || /(^|\.)gitlab\./.test(host)) {
    if (path.split("/").length < 2) return null;
    const web = `https://${host}/${path}`;
    return { provider: "gitlab", url: web, commitUrl: (sha) => `${web}/-/commit/${sha}` };
  }
  return null;
}

/** The commit page for a revision of a Git source, or null (unknown host, OCI/Helm revision, no SHA). */
export function commitLink(repoUrl: string | null | undefined, revision: string | null | undefined): CommitLink | null {
  const sha = commitShaOf(revision);
  const repo = repositoryWeb(repoUrl);
  if (!sha || !repo) return null;
  return { provider: repo.provider, sha, url: repo.commitUrl(sha), repositoryUrl: repo.url };
}
