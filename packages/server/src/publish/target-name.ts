import path from "node:path";

/** A remote (clone, then push) rather than a folder used as the repository itself. */
export function isRemoteGit(location: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(location) || /^[^/\\]+@[^:]+:/.test(location);
}

/**
 * An address as users may see it: no user name or password, no query (tokens travel there too),
 * no fragment. An address that does not parse loses at least what stands before an '@'.
 */
export function urlWithoutCredentials(address: string): string {
  try {
    const url = new URL(address);
    url.username = "";
    url.password = "";
    url.search = "";
    url.hash = "";
    return url.toString();
  } catch {
    return address.replace(/\/\/[^/]*@/, "//");
  }
}

function folderName(folder: string): string {
  const name = path.basename(folder);
  return name ? `git repository '${name}'` : "git repository";
}

/**
 * Where a git wiki lives, in the words of the people who read its pages: a folder on the server
 * (or a file:// URL, which is one too) by its base name, since its path says nothing to them and
 * much to an attacker; a remote by its address without user name or password (`git@host:org/x`
 * shows as `host:org/x`).
 */
export function gitTargetName(location: string): string {
  if (/^file:\/\//i.test(location)) {
    let folder = location.slice("file://".length);
    try {
      folder = decodeURIComponent(new URL(location).pathname);
    } catch {
      // Not a URL after all: its text is the folder.
    }
    return folderName(folder);
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(location))
    return `git repository ${urlWithoutCredentials(location)}`;
  if (isRemoteGit(location)) return `git repository ${location.replace(/^[^/\\]+@/, "")}`;
  return folderName(path.resolve(location));
}
