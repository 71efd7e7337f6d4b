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

/**
 * What in a remote's address is a credential: its password (or, where there is none, its user name,
 * which is where some hosts take a token), as written and percent-decoded. Nothing for a folder or
 * an scp-like `user@host:path` (ssh users are not secrets).
 */
export function credentialsOf(location: string): string[] {
  let url: URL;
  try {
    url = new URL(location);
  } catch {
    return [];
  }
  const secret = url.password || url.username;
  const decode = (text: string) => {
    try {
      return decodeURIComponent(text);
    } catch {
      return text;
    }
  };
  // Shorter ones would take ordinary words out of git's texts, and guess no sooner for it.
  return [...new Set([secret, decode(secret)])].filter((s) => s.length >= 4);
}

/**
 * A text from git (its message, its command line) as the log may keep it: the user name and
 * password of every URL in it taken out, and each of `secrets` replaced wherever it stands.
 */
export function textWithoutCredentials(text: string, secrets: readonly string[] = []): string {
  let clean = text.replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#'"@]*(?:@[^\s/?#'"@]*)*@/gi, "$1");
  for (const secret of secrets) clean = clean.replaceAll(secret, "[redacted]");
  return clean;
}

/**
 * An error as the log may keep it: its message and its causes' without credentials (fetch's own
 * message, for one, repeats an address that carries them), their codes kept.
 */
export function errorWithoutCredentials(
  error: unknown,
  secrets: readonly string[],
  depth = 0,
): Error {
  const { message, cause, code } = (error ?? {}) as {
    message?: unknown;
    cause?: unknown;
    code?: unknown;
  };
  const clean = new Error(textWithoutCredentials(String(message ?? error), secrets), {
    cause:
      cause !== undefined && depth < 4
        ? errorWithoutCredentials(cause, secrets, depth + 1)
        : undefined,
  });
  return code === undefined ? clean : Object.assign(clean, { code });
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
