import { describe, expect, it } from "vitest";
import { commitLink, commitShaOf, repositoryWeb } from "./commit-url";

const SHA = "450796ddb2ab6724ee1cc32a4be56da032d1cca0";

describe("commitShaOf", () => {
  it.each([
    [`main@sha1:${SHA}`, SHA],
    [`sha1:${SHA}`, SHA],
    [`master/${SHA}`, SHA],
    [SHA, SHA],
    [`refs/tags/v1.0.0@sha1:${SHA.toUpperCase()}`, SHA],
    ["v1.2.3@sha256:9f0a1b2c3d4e5f60718293a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4", null],
    ["sha256:83a3c595163a6ba0333e529c8dd2b5cdf4e4d6e1e6b1c8f5e6b7c8d9e0f1a2b3", null],
    ["6.0.3", null],
    [null, null],
  ])("%s → %s", (rev, want) => expect(commitShaOf(rev)).toBe(want));
});

describe("commitLink", () => {
  it.each([
    ["https://github.com/acme/fleet", "github", `https://github.com/acme/fleet/commit/${SHA}`],
    ["https://github.com/acme/fleet.git", "github", `https://github.com/acme/fleet/commit/${SHA}`],
    ["ssh://git@github.com/acme/fleet.git", "github", `https://github.com/acme/fleet/commit/${SHA}`],
    ["git@github.com:acme/fleet.git", "github", `https://github.com/acme/fleet/commit/${SHA}`],
    ["https://gitlab.com/acme/platform/fleet.git", "gitlab", `https://gitlab.com/acme/platform/fleet/-/commit/${SHA}`],
    ["ssh://git@gitlab.example.com/acme/fleet.git", "gitlab", `https://gitlab.example.com/acme/fleet/-/commit/${SHA}`],
    ["https://bitbucket.org/acme/fleet.git", "bitbucket", `https://bitbucket.org/acme/fleet/commits/${SHA}`],
    ["https://jane@bitbucket.org/acme/fleet.git", "bitbucket", `https://bitbucket.org/acme/fleet/commits/${SHA}`],
    ["git@bitbucket.org:acme/fleet.git", "bitbucket", `https://bitbucket.org/acme/fleet/commits/${SHA}`],
    [
      "https://bitbucket.acme.internal/scm/plat/fleet.git",
      "bitbucket-server",
      `https://bitbucket.acme.internal/projects/PLAT/repos/fleet/commits/${SHA}`,
    ],
    ["https://dev.azure.com/acme/Platform/_git/fleet", "azure-devops", `https://dev.azure.com/acme/Platform/_git/fleet/commit/${SHA}`],
    ["https://acme@dev.azure.com/acme/Platform/_git/fleet", "azure-devops", `https://dev.azure.com/acme/Platform/_git/fleet/commit/${SHA}`],
    ["ssh://git@ssh.dev.azure.com/v3/acme/Platform/fleet", "azure-devops", `https://dev.azure.com/acme/Platform/_git/fleet/commit/${SHA}`],
    ["git@ssh.dev.azure.com:v3/acme/Platform/fleet", "azure-devops", `https://dev.azure.com/acme/Platform/_git/fleet/commit/${SHA}`],
    [
      "https://acme.visualstudio.com/DefaultCollection/Platform/_git/fleet",
      "azure-devops",
      `https://dev.azure.com/acme/Platform/_git/fleet/commit/${SHA}`,
    ],
    [
      "https://git-codecommit.eu-west-1.amazonaws.com/v1/repos/fleet",
      "codecommit",
      `https://eu-west-1.console.aws.amazon.com/codesuite/codecommit/repositories/fleet/commit/${SHA}?region=eu-west-1`,
    ],
    [
      "ssh://APKAEIBAERJR2EXAMPLE@git-codecommit.us-east-1.amazonaws.com/v1/repos/fleet",
      "codecommit",
      `https://us-east-1.console.aws.amazon.com/codesuite/codecommit/repositories/fleet/commit/${SHA}?region=us-east-1`,
    ],
    [
      "codecommit::eu-central-1://fleet",
      "codecommit",
      `https://eu-central-1.console.aws.amazon.com/codesuite/codecommit/repositories/fleet/commit/${SHA}?region=eu-central-1`,
    ],
  ])("%s", (repo, provider, url) => {
    const link = commitLink(repo, `main@sha1:${SHA}`);
    expect(link).toMatchObject({ provider, url, sha: SHA });
  });

  it("gives nothing for unknown hosts and non-Git revisions", () => {
    expect(commitLink("https://git.example.org/acme/fleet.git", `main@sha1:${SHA}`)).toBeNull();
    expect(commitLink("oci://ghcr.io/acme/manifests", "v1@sha256:abc")).toBeNull();
    expect(commitLink("https://github.com/acme/fleet", "6.0.3")).toBeNull();
  });

  it("knows the repository page", () => {
    expect(repositoryWeb("git@github.com:acme/fleet.git")?.url).toBe("https://github.com/acme/fleet");
  });
});
